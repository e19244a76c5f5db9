#!/usr/bin/env node
/**
 * Which blocks does a segmenter change remove, and what had a held-out model made of them? Every
 * page of the shared sets is segmented by an earlier build and by this one; on each page whose
 * block texts differ, the blocks of the earlier build that this one no longer makes are counted,
 * with the words the held-out fold had kept of them, wrongly (label 0) or rightly, and dropped, from
 * the scores of `loso-block-scores.js` (made with the earlier build) where --scores has the set.
 *
 *   node experiments/removed-blocks.js --before OTHER_CHECKOUT [--scores DIR] [--data ROOT] [--sets a,b,…]
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { segmentHtml } from "@winnow/segment";
import { parseFlags } from "../benchmarks/lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
if (typeof flags.before !== "string") throw new Error("--before OTHER_CHECKOUT: the earlier build, segment package built");
const before = await import(pathToFileURL(join(resolve(flags.before), "packages/segment/dist/index.js")).href);
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const sets = (flags.sets ?? "wcxb-dev,cleaneval,l3s-gn1,googletrends-2017,magic-html,cleanportaleval,newspaper3k,chinese-wce").split(",");

for (const set of sets) {
  const file = flags.scores === undefined ? "" : `${flags.scores}/${set}.jsonl`;
  const scores = existsSync(file)
    ? new Map(
        readFileSync(file, "utf8")
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => {
            const d = JSON.parse(line);
            return [d.id, d];
          }),
      )
    : null;
  for (const name of readdirSync(join(root, set, "html")).sort()) {
    const html = gunzipSync(readFileSync(join(root, set, "html", name))).toString("utf8");
    const old = before.segmentHtml(html).blocks;
    const now = segmentHtml(html).blocks;
    if (old.length === now.length && old.every((b, i) => b.text === now[i].text)) continue;
    const left = new Map();
    for (const b of now) left.set(b.text, (left.get(b.text) ?? 0) + 1);
    const id = name.replace(".html.gz", "");
    const page = scores?.get(id);
    let removed = 0;
    const words = { keptWrong: 0, keptRight: 0, dropped: 0 };
    old.forEach((b, i) => {
      const copies = left.get(b.text) ?? 0;
      if (copies > 0) {
        left.set(b.text, copies - 1);
        return;
      }
      removed++;
      if (page === undefined) return;
      const block = page.blocks[i];
      if (block.s < page.threshold) words.dropped += block.words;
      else if (block.label === 1) words.keptRight += block.words;
      else words.keptWrong += block.words;
    });
    const held =
      page === undefined
        ? ""
        : `; held-out fold kept ${words.keptWrong} of their words wrongly, ${words.keptRight} rightly, dropped ${words.dropped}`;
    console.log(`${set}/${id}: ${old.length} -> ${now.length} blocks, ${removed} removed${held}`);
  }
}
