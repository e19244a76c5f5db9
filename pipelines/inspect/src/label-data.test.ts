import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hostileSite, SAMPLE_WARC, WCXB_SAMPLE } from "../test/fixtures.js";
import { LabelledDataError } from "@winnow/evaluation";
import { loadLabelPages } from "./label-data.js";

const site = hostileSite();
afterAll(() => rmSync(join(site, ".."), { recursive: true, force: true }));

describe("pages to label", () => {
  it("takes WCXB pages by their ids", async () => {
    const pages = await loadLabelPages([WCXB_SAMPLE], { limit: 2 });
    expect(pages.map((p) => p.id)).toEqual(["0437", "0541"]);
    expect(pages[0].blockTexts).toEqual(pages[0].doc.blocks.map((b) => b.text));
    expect(pages[0].url).toMatch(/^https?:\/\//);
  });

  it("takes JSONL lines by id, else line number", async () => {
    const file = join(site, "..", "pages.jsonl");
    writeFileSync(
      file,
      [
        JSON.stringify({ id: "first", url: "https://a.example/", html: "<p>Some text here.</p>", text: "Some text here." }),
        JSON.stringify({ url: "https://b.example/", html: "<p>Other text.</p>", text: "Other text." }),
      ].join("\n"),
    );
    const pages = await loadLabelPages([file]);
    expect(pages.map((p) => [p.id, p.url])).toEqual([
      ["first", "https://a.example/"],
      ["2", "https://b.example/"],
    ]);
  });

  it("takes HTML files by their path relative to the given directory, and WARC records by record id", async () => {
    const pages = await loadLabelPages([site, SAMPLE_WARC]);
    expect(pages.slice(0, 2).map((p) => p.id)).toEqual(["markup.html", join("sub", "plain.html")]);
    expect(pages.slice(2)).toHaveLength(14);
    expect(pages[2].id).toMatch(/^<urn:uuid:[0-9a-f-]+>$/);
    expect(pages[2].url).toBe("https://www.coryd.dev/posts/2021/a-brief-intro-to-git");
    expect(new Set(pages.map((p) => p.id)).size).toBe(pages.length);
  });

  it("keeps ids apart when the same page is given twice", async () => {
    const file = join(site, "markup.html");
    const pages = await loadLabelPages([file, file]);
    expect(pages.map((p) => p.id)).toEqual([file, `${file}#2`]);
  });

  it("says which path is missing or holds nothing to label", async () => {
    await expect(loadLabelPages([join(site, "nope")])).rejects.toThrow(new LabelledDataError("data not found", join(site, "nope")));
    const empty = join(site, "..", "empty.html");
    writeFileSync(empty, "<html><body></body></html>");
    await expect(loadLabelPages([empty])).rejects.toThrow(/no pages with text to label/);
    const bad = join(site, "..", "bad.jsonl");
    writeFileSync(bad, "{not json\n");
    await expect(loadLabelPages([bad])).rejects.toThrow(/bad\.jsonl:1: not a JSON object/);
  });
});
