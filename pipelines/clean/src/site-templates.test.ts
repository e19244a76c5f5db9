// Site templates end to end on constructed sites: real pages from fixtures/wcxb-sample, all
// dressed with one site's header, navigation and footer, served from one host in a WARC.
// The compiled module is imported (run `npx tsc -b` first): worker threads load dist/worker.js.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { pino } from "pino";
import { wordScores } from "@winnow/evaluation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "@winnow/errors";
import { openInlineCleaner } from "../dist/pool.js";
import { runClean, type CleanRunOptions } from "../dist/run.js";
import { fitSiteTemplates } from "../dist/site-templates.js";
import { gzipEach, warcResponse } from "../test/test-warcs.js";

const SAMPLE = new URL("../../../fixtures/wcxb-sample/", import.meta.url);
const ids = readdirSync(new URL("html/", SAMPLE))
  .map((name) => name.replace(".html.gz", ""))
  .sort();
const html = (id: string) => gunzipSync(readFileSync(new URL(`html/${id}.html.gz`, SAMPLE))).toString("utf8");
const gold = (id: string) =>
  (JSON.parse(readFileSync(new URL(`ground-truth/${id}.json`, SAMPLE), "utf8")) as { ground_truth: { main_content: string } }).ground_truth
    .main_content;

// Prose, not only links: a classifier alone keeps some of it.
const SITE_TEXTS = [
  "The Northfield Courier",
  "Local reporting since 1921, independent and reader funded. Support our newsroom with a monthly gift.",
  "Subscribe to our weekly newsletter and get the best long reads of the week delivered to your inbox every Sunday morning.",
  "The Northfield Courier is published by the Northfield Media Cooperative. All articles are edited by our team of journalists and fact checkers.",
];
const HEADER =
  `<header class="site-header"><div class="brand"><a href="/">${SITE_TEXTS[0]}</a></div><div class="tagline"><p>${SITE_TEXTS[1]}</p></div>` +
  `<nav><ul><li><a href="/news">News</a></li><li><a href="/sport">Sport</a></li><li><a href="/culture">Culture</a></li><li><a href="/opinion">Opinion</a></li></ul></nav></header>`;
const FOOTER =
  `<footer><section class="newsletter"><h3>Newsletter</h3><p>${SITE_TEXTS[2]}</p></section>` +
  `<div class="about"><p>${SITE_TEXTS[3]}</p></div><ul><li><a href="/privacy">Privacy policy</a></li><li><a href="/contact">Contact us</a></li></ul></footer>`;

/** The page with the site's header right after <body> and its footer right before </body>. */
function dress(page: string): string {
  const open = /<body[^>]*>/i.exec(page);
  const at = open ? open.index + open[0].length : 0;
  const close = page.toLowerCase().lastIndexOf("</body>");
  const end = close >= at ? close : page.length;
  return page.slice(0, at) + HEADER + page.slice(at, end) + FOOTER + page.slice(end);
}

let dir: string;
let warc: string;

interface Line {
  url: string;
  text: string;
}
const readLines = (path: string): Line[] =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Line);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-site-templates-"));
  // Every sample page dressed on one host, in shuffled URL order; one more page alone on another host.
  const records = ids.map((id, i) =>
    warcResponse({
      id: `<urn:st:${id}>`,
      url: `https://courier.example/2024/05/17/story/${(i * 5) % ids.length}-${id}`,
      body: dress(html(id)),
    }),
  );
  records.push(warcResponse({ id: "<urn:st:alone>", url: "https://alone.example/", body: dress(html(ids[0])) }));
  warc = join(dir, "site.warc.gz");
  writeFileSync(warc, gzipEach(records).file);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const clean = (name: string, options: Partial<CleanRunOptions> = {}) =>
  runClean({ inputs: [warc], output: join(dir, name), workers: 0, ...options });

const hasSiteText = (text: string) => SITE_TEXTS.some((t) => text.includes(t));

describe("clean --site-templates on a constructed site", () => {
  it("finds the shared header, navigation and footer, drops them, and keeps each article", async () => {
    // At the model's recall operating point, where the classifier alone keeps some of the site's
    // prose (at its balanced point the shipped model of 2026-11-26 already drops all of it here).
    const plain = readLines((await clean("plain.jsonl", { favor: "recall" })).output);
    const summary = await clean("templates.jsonl", { siteTemplates: {}, favor: "recall" });
    const lines = readLines(summary.output);
    expect(summary.siteTemplates).toMatchObject({
      mode: "memory",
      pages: ids.length + 1,
      hostsWithTemplate: 1,
      pairsCompared: ids.length - 1,
    });
    expect(lines.length).toBe(plain.length);

    // Without the rule the classifier keeps some of the site's prose; with it, none on the shared host.
    expect(plain.filter((l) => l.url.startsWith("https://courier.") && hasSiteText(l.text)).length).toBeGreaterThan(0);
    for (const line of lines.filter((l) => l.url.startsWith("https://courier."))) expect(hasSiteText(line.text)).toBe(false);
    // The page alone on its host has nobody to share a template with: unchanged.
    const alone = (ls: Line[]) => ls.find((l) => l.url === "https://alone.example/")?.text;
    expect(alone(lines)).toBe(alone(plain));

    // The articles stay: word F1 against each page's gold text is not lower than without the rule.
    let before = 0,
      after = 0;
    for (const id of ids) {
      const find = (ls: Line[]) => ls.find((l) => l.url.endsWith(`-${id}`))?.text ?? "";
      const f1Before = wordScores(find(plain), gold(id)).f1;
      const f1After = wordScores(find(lines), gold(id)).f1;
      expect(f1After).toBeGreaterThanOrEqual(f1Before - 0.02);
      before += f1Before;
      after += f1After;
    }
    expect(after).toBeGreaterThan(before);
  });

  it("writes the same output in performance mode, on worker threads and inline", async () => {
    const memory = await clean("memory.jsonl", { siteTemplates: { mode: "memory" } });
    const performance = await clean("performance.jsonl", { siteTemplates: { mode: "performance" }, workers: 2, batchSize: 4 });
    expect(performance.siteTemplates?.mode).toBe("performance");
    expect(readFileSync(performance.output, "utf8")).toBe(readFileSync(memory.output, "utf8"));
    // Inline, pass one parses with the record's URL and the run's options too, so nothing differs.
    const inline = await clean("performance-inline.jsonl", { siteTemplates: { mode: "performance" }, workers: 0 });
    expect(readFileSync(inline.output, "utf8")).toBe(readFileSync(memory.output, "utf8"));
  });

  it("counts and logs pages whose fingerprinting worker failed, one line for the batch", async () => {
    // winnow's own worker, except that fingerprinting a batch holding the marked page throws.
    const worker = pathToFileURL(fileURLToPath(new URL("../dist/worker.js", import.meta.url))).href;
    const workerModule = join(dir, "faulty-fingerprints.mjs");
    writeFileSync(
      workerModule,
      `import cleanTask, { describeClassifier, fingerprintTask as real } from ${JSON.stringify(worker)};
export { describeClassifier };
export default cleanTask;
export function fingerprintTask(task) {
  if (Buffer.concat(task.bodies).toString("latin1").includes("WINNOW-TEST-FINGERPRINT")) throw new Error("injected fault");
  return real(task);
}
`,
    );
    const marked = join(dir, "marked.warc.gz");
    const body = dress(html(ids[1])).replace("</body>", "<p>WINNOW-TEST-FINGERPRINT</p></body>");
    writeFileSync(marked, gzipEach([warcResponse({ id: "<urn:st:marked>", url: "https://courier.example/marked", body })]).file);
    const warnings: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => warnings.push(JSON.parse(line).msg as string) });
    const summary = await runClean({
      inputs: [warc, marked],
      output: join(dir, "faulty.jsonl"),
      workers: 2,
      batchSize: 1,
      workerModule,
      logger,
      siteTemplates: {},
    });
    expect(summary.siteTemplates).toMatchObject({ pages: ids.length + 1, fingerprintFailures: 1, unreadInputs: 0, hostsWithTemplate: 1 });
    expect(warnings).toEqual([
      `site templates: fingerprinting 1 page failed, left out of the templates: worker failed: injected fault (${marked}, from https://courier.example/marked)`,
    ]);
    // Pass two cleans the page all the same.
    expect(readLines(summary.output).some((l) => l.url === "https://courier.example/marked")).toBe(true);
  });

  it("counts and logs an input pass one cannot read (gone since the run checked it), and fits from the rest", async () => {
    const warnings: string[] = [];
    const logger = pino({ level: "warn" }, { write: (line: string) => warnings.push(JSON.parse(line).msg as string) });
    const gone = join(dir, "gone.warc.gz");
    const cleaner = await openInlineCleaner({ model: "heuristic" });
    try {
      const fit = await fitSiteTemplates(
        [gone, warc],
        cleaner,
        {},
        { batchSize: 8, maxPageBytes: undefined, inFlight: 1, signal: undefined, logger },
      );
      expect(fit.summary).toMatchObject({ pages: ids.length + 1, hostsWithTemplate: 1, unreadInputs: 1, fingerprintFailures: 0 });
    } finally {
      await cleaner.close();
    }
    expect(warnings.length).toBe(1);
    expect(warnings[0]).toMatch(/^site templates: pass one cannot read .*no such file.*\(.*gone\.warc\.gz\)$/i);
  });

  it("refuses standard input, which cannot be read twice", async () => {
    const error = await runClean({ inputs: ["-"], output: join(dir, "stdin.jsonl"), workers: 0, siteTemplates: {} }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe("site templates read the inputs twice, so standard input cannot be one (-)");
  });
});
