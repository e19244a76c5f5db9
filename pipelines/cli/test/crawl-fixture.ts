// A small crawl for the launch tests: fixture WARCs under mirror/seg/, a warc.paths.gz listing
// them relative to mirror/, and helpers to compare the outputs of an array job with one run.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { runWinnow } from "./run-winnow.js";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/", import.meta.url));
const FILES = [
  "sample.warc.gz",
  "warc/example.arc.gz",
  "warc/example-iana.org-chunked.warc",
  "warc/example.arc",
  "warc/example-digest.warc",
];
/** Names under mirror/seg/: distinct, so each input has its own output. */
const NAMES = ["sample.warc.gz", "a.arc.gz", "b.warc", "c.arc", "d.warc"];

export function fixtureCrawl(dir: string): void {
  mkdirSync(join(dir, "mirror", "seg"), { recursive: true });
  FILES.forEach((file, i) => copyFileSync(join(FIXTURES, file), join(dir, "mirror", "seg", NAMES[i])));
  writeFileSync(join(dir, "warc.paths.gz"), gzipSync(NAMES.map((n) => `seg/${n}`).join("\n")));
}

const lines = (path: string): string[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "");

/** The documents of one single-process `winnow clean` over the same inputs, sorted. */
export async function singleRunDocuments(dir: string): Promise<string[]> {
  const out = join(dir, "single.jsonl");
  if (!existsSync(out)) {
    const inputs = NAMES.map((n) => join(dir, "mirror", "seg", n));
    const r = await runWinnow(["clean", ...inputs, "-o", out, "--model", "heuristic", "--no-lang-id", "--workers", "0"], dir);
    if (r.code !== 0) throw new Error(`single run failed: ${r.stderr}`);
  }
  return lines(out).sort();
}

/** Outputs under `out` that have a done marker, and their documents (sorted), sources made local. */
export function doneOutputs(out: string): { files: string[]; documents: string[] } {
  const all = existsSync(out) ? (readdirSync(out, { recursive: true }) as string[]).filter((f) => statSync(join(out, f)).isFile()) : [];
  const files = all.filter((f) => all.includes(`${f}.done`)).sort();
  return { files, documents: files.flatMap((f) => lines(join(out, f))).sort() };
}
