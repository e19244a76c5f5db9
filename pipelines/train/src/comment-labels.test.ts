// The comment head's training labels (Dataset.comments) on a WordPress page with a thread and a
// reply form: comment gold where a set has it, the thread by the markup rule where it has none,
// and never the form, its notes, the section title or the reply links.
import { readFileSync } from "node:fs";
import type { LabelledPage } from "@winnow/evaluation";
import { TEXREX_CONTEXT } from "@winnow/features";
import { segmentHtml } from "@winnow/segment";
import { describe, expect, it } from "vitest";
import { buildDataset } from "./dataset.js";

const html = readFileSync(new URL("../../../fixtures/comments/wordpress-thread.html", import.meta.url), "utf8");
const doc = segmentHtml(html);
const texts = doc.blocks.map((b) => b.text);
const article = texts.filter((t) => t.startsWith("Old apple") || t.startsWith("The first rule") || t.startsWith("Begin with")).join("\n\n");
const FORM = ["Leave a Reply", "Your email address will not be published. Required fields are marked *", "Name *", "Email *", "Website"];
const BODIES = ["We inherited a neglected Bramley", "That is lovely to hear", "Would you paint the larger cuts"];

function page(source: string, comments: string): LabelledPage {
  const base = { id: "0001", url: "https://orchard.example/pruning", domain: "orchard.example", pageType: "article" };
  return { ...base, source, doc, gold: article, withSnippets: [], withoutSnippets: [], comments, language: "" };
}

/** Texts of the blocks labelled as comments. */
function labelled(pages: LabelledPage[], p: number): string[] {
  const data = buildDataset(pages, TEXREX_CONTEXT);
  return texts.filter((_, b) => data.comments[data.firstRow[p] + b] === 1);
}

describe("comment labels", () => {
  it("label the thread by the markup rule where the set has no comment gold, never the form", () => {
    const said = labelled([page("blogs", "")], 0);
    for (const body of BODIES) expect(said.some((t) => t.startsWith(body))).toBe(true);
    expect(said).toContain("Tobias Wren says:");
    for (const chrome of [...FORM, "Reply"]) expect(said).not.toContain(chrome);
    expect(said.some((t) => t.startsWith("3 thoughts on"))).toBe(false);
    expect(said.some((t) => t.startsWith("Old apple"))).toBe(false);
  });

  it("follow the comment gold where there is one, less the form a set's gold counts as comments", () => {
    // Comment gold in the manner of L3S-GN1: the reply form's title, notes and labels with the comments.
    const gold = [...texts.filter((t) => BODIES.some((b) => t.startsWith(b))), ...FORM].join("\n\n");
    const said = labelled([page("news", gold)], 0);
    expect(said.filter((t) => BODIES.some((b) => t.startsWith(b)))).toHaveLength(3);
    for (const chrome of FORM) expect(said).not.toContain(chrome);
  });
});
