import { Segmenter } from "@winnow/segment";
import { describe, expect, it } from "vitest";
import { SiteTemplateFitter, dropTemplateBlocks, pageFingerprints, templateBlocks } from "./index.js";
import { intersectionSize } from "./fingerprints.js";

const segmenter = new Segmenter({ subtrees: true });
const HEADER = `<header><div class=logo>Example News</div><nav><ul><li>World</li><li>Sport</li><li>Culture</li></ul></nav></header>`;
const FOOTER = `<footer><div>© 2024 Example News. All rights reserved.</div><ul><li>Privacy</li><li>Contact</li></ul></footer>`;
const page = (article: string) =>
  segmenter.segment(`<html><body>${HEADER}<div class=main><article><p>${article}</p></article></div>${FOOTER}</body></html>`);
const texts = (doc: ReturnType<typeof page>, flags: Uint8Array) => doc.blocks.filter((_, b) => flags[b] === 1).map((b) => b.text);

describe("fingerprint sets", () => {
  it("are sorted, unique and leave out text-less subtrees", () => {
    const doc = segmenter.segment(`<div><ul><li>a</li></ul><ul><li>a</li></ul><div></div></div>`);
    const set = pageFingerprints(doc.subtrees!);
    expect(set.length).toBe(2); // the outer div, and one ul for both copies
    expect(set[0]).toBeLessThan(set[1]);
    expect(intersectionSize(set, set)).toBe(2);
  });
});

describe("fitting a host's template", () => {
  it("marks what neighbouring pages share and keeps each page's article", () => {
    const docs = ["First story about rivers.", "Second story about hills.", "Third story about towns."].map(page);
    const fitter = new SiteTemplateFitter();
    docs.forEach((d, i) => fitter.add(`https://example.com/news/${i}`, pageFingerprints(d.subtrees!)));
    fitter.add("https://other.example/alone", pageFingerprints(docs[0].subtrees!));
    const templates = fitter.fit();
    expect(templates.size).toBe(1);
    expect(templates.forUrl("https://other.example/x").length).toBe(0);
    const set = templates.forUrl("https://www.example.com/anything");
    for (const doc of docs) {
      const flags = templateBlocks(doc.subtrees!, set);
      expect(texts(doc, flags)).toEqual([
        "Example News",
        "World",
        "Sport",
        "Culture",
        "© 2024 Example News. All rights reserved.",
        "Privacy",
        "Contact",
      ]);
    }
    const host = [...templates.hosts()][0];
    expect(host).toMatchObject({ host: "example.com", pages: 3, pairsCompared: 2, nearDuplicates: 0 });
  });

  it("skips a near-duplicate pair instead of marking its content", () => {
    const a = page("The same story twice.");
    const fitter = new SiteTemplateFitter();
    fitter.add("https://example.com/a", pageFingerprints(a.subtrees!));
    fitter.add("https://example.com/a?print=1", pageFingerprints(page("The same story twice.").subtrees!));
    const templates = fitter.fit();
    expect(templateBlocks(a.subtrees!, templates.forUrl("https://example.com/a")).every((f) => f === 0)).toBe(true);
    expect([...templates.hosts()][0]).toMatchObject({ pairsCompared: 0, nearDuplicates: 1 });
  });

  it("compares each page with its URL neighbour only, and counts pairs for minSharedPairs", () => {
    // Sorted: /a, /b, /c. Only /a and /b carry the banner; /c shares the header with /b.
    const banner = `<aside><p>Subscribe to the newsletter</p></aside>`;
    const withBanner = (t: string) => segmenter.segment(`<body>${HEADER}${banner}<div><p>${t}</p></div></body>`);
    const fit = (minSharedPairs: number) => {
      const fitter = new SiteTemplateFitter({ minSharedPairs });
      fitter.add("https://example.com/c", pageFingerprints(segmenter.segment(`<body>${HEADER}<div><p>Story c</p></div></body>`).subtrees!));
      fitter.add("https://example.com/a", pageFingerprints(withBanner("Story a").subtrees!));
      fitter.add("https://example.com/b", pageFingerprints(withBanner("Story b").subtrees!));
      return fitter.fit().forHost("example.com");
    };
    const doc = withBanner("Story a");
    expect(texts(doc, templateBlocks(doc.subtrees!, fit(1)))).toContain("Subscribe to the newsletter");
    const twice = texts(doc, templateBlocks(doc.subtrees!, fit(2)));
    expect(twice).not.toContain("Subscribe to the newsletter");
    expect(twice).toContain("World");
  });

  it("refuses settings that make no sense", () => {
    expect(() => new SiteTemplateFitter({ minSharedPairs: 0 })).toThrow(RangeError);
    expect(() => new SiteTemplateFitter({ nearDuplicateIoU: 1.5 })).toThrow(RangeError);
  });
});

describe("the removal rule", () => {
  it("drops kept template blocks unless the classifier is sure of them", () => {
    const docs = [page("Story one is here."), page("Story two is here.")];
    const fitter = new SiteTemplateFitter();
    docs.forEach((d, i) => fitter.add(`https://example.com/${i}`, pageFingerprints(d.subtrees!)));
    const set = fitter.fit().forHost("example.com");
    const doc = docs[0];
    const scores = new Float32Array(doc.blocks.length).fill(0.6);
    scores[1] = 0.95; // "World", scored as sure content
    const kept = new Uint8Array(doc.blocks.length).fill(1);
    const dropped = dropTemplateBlocks(doc.subtrees!, set, scores, kept, 0.9);
    expect(doc.blocks.filter((_, b) => kept[b] === 1).map((b) => b.text)).toEqual(["World", "Story one is here."]);
    expect(dropped).toBe(doc.blocks.length - 2);
  });
});
