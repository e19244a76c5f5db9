import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { builtinModelPath, heuristicClassifier, loadMlpClassifier } from "@winnow/models";
import { hostileSite, IMG_TEXT, SAMPLE_WARC, SCRIPT_TEXT, WCXB_SAMPLE } from "../test/fixtures.js";
import { jsonForScript } from "./json-script.js";
import { buildReportData, type ReportData } from "./report-data.js";
import { renderReport, writeReport } from "./report-html.js";
import { writeInspectReport } from "./inspect.js";

const site = hostileSite();
afterAll(() => rmSync(join(site, ".."), { recursive: true, force: true }));

/** The data element's text, as the browser's JSON.parse would read it. */
function embeddedData(html: string): ReportData {
  const match = /<script type="application\/json" id="winnow-data">([^]*?)<\/script>/.exec(html);
  if (match === null) throw new Error("no data element");
  return JSON.parse(match[1]) as ReportData;
}

describe("report data", () => {
  it("scores every block of every HTML record of a WARC, in order, and counts what it skipped", async () => {
    const data = await buildReportData([SAMPLE_WARC], { classifier: heuristicClassifier() });
    expect(data.documents).toHaveLength(14);
    expect(data.limited).toBe(false);
    expect(data.skipped).toEqual({ "not-response": 1 });
    expect(data.model).toBe("heuristic");
    const first = data.documents[0];
    expect(first.url).toBe("https://www.coryd.dev/posts/2021/a-brief-intro-to-git");
    expect(first.id).toMatch(/^<urn:uuid:/);
    for (const doc of data.documents) {
      expect(doc.blocksTotal).toBe(doc.blocks.length);
      expect(doc.blocksKept).toBe(doc.blocks.filter((b) => b.kept === 1).length);
      for (const b of doc.blocks) expect(b.kept).toBe(b.score >= data.threshold ? 1 : 0);
    }
    // Both decisions occur: the report has something to show on each side.
    const kept = data.documents.flatMap((d) => d.blocks).filter((b) => b.kept === 1).length;
    const total = data.documents.reduce((n, d) => n + d.blocksTotal, 0);
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(total);
  });

  it("keeps the article and drops the navigation of a real page with the shipped model", async () => {
    const classifier = await loadMlpClassifier(builtinModelPath("mlp")!);
    try {
      const data = await buildReportData([SAMPLE_WARC], { classifier, limit: 1 });
      const blocks = data.documents[0].blocks;
      const nav = blocks.find((b) => b.text === "Feeds Status updates Mastodon");
      expect(nav).toMatchObject({ kept: 0, features: { container: "nav" } });
      expect(nav!.features.linkDensity).toBeGreaterThan(0.9);
      const prose = blocks.find((b) => b.text.startsWith("This post is over 3 years old"));
      expect(prose).toMatchObject({ kept: 1, features: { container: "p", linkDensity: 0 } });
      expect(prose!.features.words).toBe(23);
    } finally {
      await classifier.close();
    }
  });

  it("stops at the limit and says the inputs held more", async () => {
    const limited = await buildReportData([WCXB_SAMPLE], { classifier: heuristicClassifier(), limit: 3 });
    expect(limited.documents).toHaveLength(3);
    expect(limited.limited).toBe(true);
    expect(limited.documents.map((d) => d.source)).toEqual(
      ["0437", "0541", "0575"].map((id) => join(WCXB_SAMPLE, "html", `${id}.html.gz`)),
    );
    // Exactly as many documents as the limit: nothing was left out.
    const exact = await buildReportData([SAMPLE_WARC], { classifier: heuristicClassifier(), limit: 14 });
    expect(exact.documents).toHaveLength(14);
    expect(exact.limited).toBe(false);
  });
});

describe("report page", () => {
  it("embeds the data as JSON that page text cannot break out of", async () => {
    const data = await buildReportData([site], { classifier: heuristicClassifier() });
    const texts = data.documents.flatMap((d) => d.blocks.map((b) => b.text));
    expect(texts.some((t) => t.includes(SCRIPT_TEXT))).toBe(true);
    expect(texts.some((t) => t.includes(IMG_TEXT))).toBe(true);
    const html = renderReport(data);
    // Only the report's own two script elements; the page's markup-as-text is not markup here.
    expect(html.match(/<script/gi)).toHaveLength(2);
    expect(html).not.toContain(`onerror="`); // in the JSON the quote is \"
    expect(html).not.toContain("<img");
    expect(embeddedData(html)).toEqual(data);
  });

  it("escapes <, >, & and the JavaScript line separators, and JSON.parse restores them", () => {
    const value = { text: "</script><!-- a & b > c \u2028\u2029" };
    const json = jsonForScript(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(json).toContain("\\u003c/script\\u003e");
    expect(JSON.parse(json)).toEqual(value);
  });

  it("is self-contained: no external resources, and a policy that runs only its own script", async () => {
    const data = await buildReportData([SAMPLE_WARC], { classifier: heuristicClassifier(), limit: 2 });
    const html = renderReport(data);
    expect(html).not.toMatch(/\b(src|href)=["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/<link\b/i);
    const script = /<script>([^]*?)<\/script>/.exec(html)![1];
    const hash = createHash("sha256").update(script).digest("base64");
    expect(html).toContain(`script-src 'sha256-${hash}'`);
    expect(html).toContain("default-src 'none'");
  });
});

describe("writeInspectReport", () => {
  it("writes the report file and says how many documents it holds", async () => {
    const output = join(site, "..", "report.html");
    const summary = await writeInspectReport({ inputs: [site], output, model: "heuristic" });
    expect(summary).toMatchObject({ documents: 2, limited: false, model: "heuristic", recordsRead: 2 });
    const data = embeddedData(readFileSync(output, "utf8"));
    // HTML files in a directory come in path order.
    expect(data.documents.map((d) => d.title)).toEqual(["Markup <b>as</b> text", "Plain"]);
  });

  it("names the problem and the path when the input, the model or the output is unusable", async () => {
    const output = join(site, "..", "x.html");
    await expect(writeInspectReport({ inputs: [join(site, "missing")], output, model: "heuristic" })).rejects.toMatchObject({
      kind: "input",
      message: `cannot open input: no such file or directory (${join(site, "missing")})`,
    });
    await expect(writeInspectReport({ inputs: [site], output, model: join(site, "markup.html") })).rejects.toMatchObject({
      kind: "model",
      message: expect.stringMatching(/^cannot load model: .* \(.*markup\.html\)$/),
    });
    // Missing folders are created, so block the path with a file where a folder should be.
    await expect(
      writeInspectReport({ inputs: [site], output: join(site, "markup.html", "report.html"), model: "heuristic" }),
    ).rejects.toMatchObject({
      kind: "output",
      message: expect.stringContaining("a path component is not a directory"),
    });
  });
});

describe("sampling, input counts and streaming (#25)", () => {
  /** A folder of eight HTML files, two of them gzipped. */
  function eightPages(): string {
    const folder = mkdtempSync(join(tmpdir(), "winnow-eight-"));
    for (let i = 0; i < 8; i++) {
      const html = `<html><head><title>Page ${i}</title></head><body><p>Paragraph of page ${i}, long enough to be text worth showing in a report.</p></body></html>`;
      if (i < 2) writeFileSync(join(folder, `p${i}.html.gz`), gzipSync(html));
      else writeFileSync(join(folder, `p${i}.html`), html);
    }
    return folder;
  }

  it("counts the input files a folder holds, not the paths given", async () => {
    const folder = eightPages();
    try {
      const out = join(folder, "..", `${basename(folder)}-report.html`);
      const summary = await writeInspectReport({ inputs: [folder], output: out, model: "heuristic" });
      expect(summary.inputFiles).toBe(8);
      const data = embeddedData(readFileSync(out, "utf8"));
      expect(data.inputFiles).toBe(8);
      expect(data.documents).toHaveLength(8);
      rmSync(out);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("--sample draws from all inputs with a fixed seed: the same seed the same sample, in reading order", async () => {
    const folder = eightPages();
    try {
      const draw = (seed: number) => buildReportData([SAMPLE_WARC, folder], { classifier: heuristicClassifier(), sample: 6, seed });
      const first = await draw(1);
      const again = await draw(1);
      expect(first.sample).toEqual({ size: 6, of: 22, seed: 1 });
      expect(first.limited).toBe(false);
      expect(again.documents.map((d) => d.id)).toEqual(first.documents.map((d) => d.id));
      // Not the first six records of the first input: the draw reaches the folder too.
      const sources = new Set(first.documents.map((d) => (d.source === SAMPLE_WARC ? "warc" : "folder")));
      expect(sources).toEqual(new Set(["warc", "folder"]));
      const seeds = await Promise.all([2, 3, 4].map(draw));
      expect(seeds.some((s) => s.documents.map((d) => d.id).join() !== first.documents.map((d) => d.id).join())).toBe(true);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("writes documents to the file as they come, so memory does not grow with --limit", async () => {
    const folder = mkdtempSync(join(tmpdir(), "winnow-stream-"));
    try {
      const data = await buildReportData([SAMPLE_WARC], { classifier: heuristicClassifier(), limit: 1 });
      const { documents, ...meta } = data;
      let onDisk = 0;
      const out = join(folder, "r.html");
      const written = await writeReport(out, { what: "report", flag: "-o" }, async (emit) => {
        for (let i = 0; i < 300; i++) await emit({ ...documents[0], id: `doc-${i}` });
        // Before the run ends, what was emitted is already in the file being written.
        const temporary = readdirSync(folder).find((name) => name.includes(".tmp-"));
        onDisk = temporary === undefined ? 0 : statSync(join(folder, temporary)).size;
        return meta;
      });
      expect(onDisk).toBeGreaterThan(written.bytes / 2);
      const report = embeddedData(readFileSync(out, "utf8"));
      expect(report.documents.map((d) => d.id)).toEqual(Array.from({ length: 300 }, (_, i) => `doc-${i}`));
      expect(report.model).toBe("heuristic");
      expect(readdirSync(folder)).toEqual(["r.html"]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
