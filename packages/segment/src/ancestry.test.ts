import { describe, expect, it } from "vitest";
import { ClassLink, classChainText } from "./ancestry.js";

/** A chain of links named `names`, outermost first; returns the innermost. */
function chain(names: string[]): ClassLink {
  let link: ClassLink | null = null;
  for (const name of names) link = new ClassLink(name, link);
  return link as ClassLink;
}

describe("classChainText", () => {
  it("is empty without a link and the element's own words, lowercased, for a link without parent", () => {
    expect(classChainText(null)).toBe("");
    expect(classChainText(chain(["Main Content"]))).toBe("main content");
  });

  it("joins the innermost six links, outermost first, with ' | '", () => {
    const names = ["Page", "wrap", "Body x", "col", "Article", "entry", "TEXT y"];
    expect(classChainText(chain(names.slice(0, 3)))).toBe("page | wrap | body x");
    expect(classChainText(chain(names))).toBe("wrap | body x | col | article | entry | text y");
  });

  it("gives each link its own text, and the same string again when asked twice", () => {
    const outer = chain(["a", "b"]);
    const inner = new ClassLink("C", outer);
    const first = classChainText(inner);
    expect(first).toBe("a | b | c");
    expect(classChainText(outer)).toBe("a | b");
    expect(classChainText(inner)).toBe(first);
  });
});
