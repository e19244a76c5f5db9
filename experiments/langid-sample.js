#!/usr/bin/env node
/**
 * How much of a document language ID needs to read. For every page of the shared sets, lid.176
 * (@winnow/langid, as `winnow clean` runs it) labels:
 * - the page's whole gold text (`main_content`, every character: the reference), and
 * - the first N characters of winnow's own output text (the `text` field `winnow clean` wrote
 *   with the default model), for N in 200, 300, 500, 1000 (the default) and 2000.
 * Per set and N: the share of pages whose label is the whole gold text's, the share whose label
 * is the set's own recorded language (`_internal.language_guess`, langdetect on the gold, where
 * the set has one; WCXB dev records none), and the share whose label differs from N=1000's.
 * The N=1000 labels are also checked against the `lang` the clean run wrote (they must agree:
 * this script reads the text as the step does).
 *
 * The outputs are made when missing, into --runs (default experiments/scratch/langid-sample/),
 * one `winnow clean --workers 0` per set over a WARC that benchmarks/make-warc.js builds from
 * the set's pages; pages are matched to gold by URL (make-warc writes the gold's URL).
 *
 *   npx turbo run build --filter=@winnow/cli... && node experiments/langid-sample.js [--data DIR] [--runs DIR] [--out FILE]
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LanguageIdentifier } from "@winnow/langid";
import { parseFlags, ROOT } from "../benchmarks/lib/common.js";

const SETS = ["wcxb-dev", "cleaneval", "l3s-gn1", "googletrends-2017", "magic-html", "cleanportaleval", "newspaper3k", "chinese-wce"];
const SIZES = [200, 300, 500, 1000, 2000];
const DEFAULT = 1000;

const flags = parseFlags(process.argv.slice(2), []);
const dataRoot = flags.data ?? join(ROOT, "..", "shared", "data");
const runs = flags.runs ?? join(ROOT, "experiments", "scratch", "langid-sample");
const outFile = flags.out ?? join(ROOT, "experiments", "results", "2026-11-26-langid-sample.md");
mkdirSync(runs, { recursive: true });

/** langdetect's Chinese variants are lid.176's one "zh". */
const asLid = (code) => (code?.startsWith("zh") ? "zh" : code);

function run(args) {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} exited ${r.status}`);
}

/** winnow clean's documents of one set, by URL (a URL written twice keeps every document). */
function cleanOutput(set) {
  const out = join(runs, `${set}.jsonl`);
  if (!existsSync(out)) {
    const warc = join(runs, `${set}.warc.gz`);
    if (!existsSync(warc)) run(["benchmarks/make-warc.js", join(dataRoot, set), warc]);
    run(["pipelines/cli/bin/winnow.js", "clean", warc, "-o", out, "--workers", "0", "--log-level", "warn"]);
  }
  const byUrl = new Map();
  for (const line of readFileSync(out, "utf8").split("\n")) {
    if (line === "") continue;
    const d = JSON.parse(line);
    const list = byUrl.get(d.url) ?? [];
    list.push(d);
    byUrl.set(d.url, list);
  }
  return byUrl;
}

const whole = await LanguageIdentifier.load({ maxChars: Number.MAX_SAFE_INTEGER });
const bySize = new Map();
for (const n of SIZES) bySize.set(n, await LanguageIdentifier.load({ maxChars: n }));

const rows = [];
const changes = [];
for (const set of SETS) {
  const dir = join(dataRoot, set);
  const output = cleanOutput(set);
  const ids = readdirSync(join(dir, "ground-truth"))
    .filter((f) => f.endsWith(".json"))
    .sort();
  const tally = {
    set,
    pages: ids.length,
    written: 0,
    recorded: 0,
    matchWhole: Object.fromEntries(SIZES.map((n) => [n, 0])),
    matchRecorded: Object.fromEntries(SIZES.map((n) => [n, 0])),
    changed: Object.fromEntries(SIZES.map((n) => [n, 0])),
    cpu: Object.fromEntries(SIZES.map((n) => [n, 0])),
    wholeAgreesRecorded: 0,
    stepDisagrees: [],
    unmatched: 0,
  };
  const seen = new Map();
  for (const file of ids) {
    const id = file.slice(0, -".json".length);
    const gold = JSON.parse(readFileSync(join(dir, "ground-truth", file), "utf8"));
    const url = gold.url || `https://example.invalid/${id}`;
    const k = seen.get(url) ?? 0;
    seen.set(url, k + 1);
    const doc = output.get(url)?.[k];
    if (doc === undefined) continue; // skipped by clean (no text, nothing kept): no label at any N
    tally.written++;
    const reference = whole.identify(gold.ground_truth?.main_content ?? "")?.lang ?? "und";
    const recorded = asLid(gold._internal?.language_guess);
    if (recorded !== undefined) {
      tally.recorded++;
      if (reference === recorded) tally.wholeAgreesRecorded++;
    }
    const labels = new Map();
    for (const n of SIZES) {
      const t0 = process.cpuUsage();
      const label = bySize.get(n).identify(doc.text)?.lang ?? "und";
      const dt = process.cpuUsage(t0);
      tally.cpu[n] += (dt.user + dt.system) / 1e6;
      labels.set(n, label);
      if (label === reference) tally.matchWhole[n]++;
      if (recorded !== undefined && label === recorded) tally.matchRecorded[n]++;
    }
    for (const n of SIZES) {
      if (labels.get(n) !== labels.get(DEFAULT)) {
        tally.changed[n]++;
        changes.push({ set, id, n, label: labels.get(n), atDefault: labels.get(DEFAULT), reference });
      }
    }
    if (labels.get(DEFAULT) !== doc.lang) tally.stepDisagrees.push(`${set} ${id} (${labels.get(DEFAULT)}, clean wrote ${doc.lang})`);
  }
  for (const [url, list] of output) tally.unmatched += Math.max(0, list.length - (seen.get(url) ?? 0));
  rows.push(tally);
  console.error(`${set}: ${tally.written} of ${tally.pages} pages written`);
}

const pct = (a, b) => (b === 0 ? "–" : `${((100 * a) / b).toFixed(1)}%`);
const share = (a, b) => (b === 0 ? "–" : `${a} (${pct(a, b)})`);
const lines = [];
lines.push("# Language ID on a bounded sample against the whole text (2026-11-26)");
lines.push("");
lines.push("`node experiments/langid-sample.js` (lid.176 through @winnow/langid; winnow's text from `winnow clean --workers 0`");
lines.push('with the default model). A page counts where clean wrote it. "= whole gold": the label of the first N');
lines.push("characters of winnow's text is lid.176's label of the page's whole gold text. \"= recorded\": it is the set's");
lines.push('recorded language (langdetect on the gold, `_internal.language_guess`; WCXB dev records none). "changed":');
lines.push("the label differs from N=1000's (today's default). CPU: lid.176's seconds over the set's pages at that N.");
lines.push("");
lines.push(`| set | pages written | N | = whole gold | = recorded | changed vs 1000 | CPU s |`);
lines.push(`| --- | ---: | ---: | ---: | ---: | ---: | ---: |`);
for (const t of rows) {
  for (const n of SIZES) {
    lines.push(
      `| ${t.set} | ${t.written} of ${t.pages} | ${n} | ${share(t.matchWhole[n], t.written)} | ${share(t.matchRecorded[n], t.recorded)} | ` +
        `${share(t.changed[n], t.written)} | ${t.cpu[n].toFixed(3)} |`,
    );
  }
}
lines.push("");
lines.push("Whole gold text against the recorded language (the two references agree on):");
lines.push("");
for (const t of rows) lines.push(`- ${t.set}: ${t.recorded === 0 ? "no recorded language" : pct(t.wholeAgreesRecorded, t.recorded)}`);
lines.push("");
const disagreements = rows.flatMap((t) => t.stepDisagrees);
lines.push(
  `N=1000 labels that differ from the \`lang\` clean wrote: ${disagreements.length}${disagreements.length ? ` (${disagreements.join("; ")})` : ""}.`,
);
lines.push("The language step reads the blocks joined by spaces; the written `text` joins them with line breaks and");
lines.push("lays tables and code out, so a page can read differently at the same N.");
lines.push("");
lines.push(`Documents clean wrote that no page's URL matched: ${rows.map((t) => `${t.set} ${t.unmatched}`).join(", ")}.`);
lines.push("");
lines.push("Pages whose label at N differs from N=1000's (set, page, N: label at N / at 1000 / whole gold):");
lines.push("");
for (const c of changes) lines.push(`- ${c.set} ${c.id}, N=${c.n}: ${c.label} / ${c.atDefault} / ${c.reference}`);
lines.push("");
writeFileSync(outFile, lines.join("\n"));
console.error(`wrote ${outFile}`);
