#!/usr/bin/env node
/**
 * Does a change to the feature code change what the models see? Segments every page of the
 * labelled sets once with this build's segmenter, extracts the rows of every feature set with an
 * earlier build's features and with this build's, page after page in one process (so scratch that
 * either build reuses from page to page is exercised as in a clean run), and compares every
 * Float32 value bit for bit (a -0 against a 0, or one NaN against another, counts as a
 * difference). Zero differences means the shipped models score every block as before, and every
 * quality figure is unchanged by construction.
 *
 *   npx turbo run build --filter=@winnow/features... && node experiments/feature-equivalence.js --before OTHER_CHECKOUT [--data DIR]
 *     [--sets texrex37,texrex37+ext,texrex37+ext+ctx]
 *   (OTHER_CHECKOUT: a checkout of the earlier commit with packages/features/dist built, e.g.
 *   `git archive 03a9544 | tar -x -C DIR`, a node_modules link to this one's, and the features built)
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { decodeHtmlPieces } from "@winnow/archive";
import { Segmenter } from "@winnow/segment";
import { parseFlags } from "../benchmarks/lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
if (flags.before === undefined) throw new Error("--before OTHER_CHECKOUT is needed");
const data = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const SETS = ["wcxb-dev", "cleaneval", "l3s-gn1", "googletrends-2017", "magic-html", "cleanportaleval", "newspaper3k", "chinese-wce"];
// --sets a,b: only these (a set the earlier build lacks cannot be compared).
const FEATURE_SETS = flags.sets?.split(",") ?? ["texrex37", "texrex37+ext", "texrex37+ext+ctx"];

const before = await import(pathToFileURL(join(flags.before, "packages/features/dist/index.js")).href);
const after = await import(new URL("../packages/features/dist/index.js", import.meta.url).href);

const segmenter = new Segmenter();
const totals = { pages: 0, blocks: 0, values: 0, differences: 0 };
console.log(`feature sets: ${FEATURE_SETS.join(", ")}; before: ${flags.before}`);
for (const set of SETS) {
  const dir = join(data, set, "html");
  const count = { pages: 0, blocks: 0, values: 0, differences: 0 };
  const shown = [];
  for (const name of readdirSync(dir).sort()) {
    const { pieces } = decodeHtmlPieces(gunzipSync(readFileSync(join(dir, name))), "");
    const doc = segmenter.segment(pieces);
    count.pages++;
    count.blocks += doc.blocks.length;
    for (const featureSet of FEATURE_SETS) {
      const old = before.featureSetByName(featureSet);
      const now = after.featureSetByName(featureSet);
      const a = new Uint32Array(old.extract(doc).buffer);
      const b = new Uint32Array(now.extract(doc).buffer);
      count.values += a.length;
      if (a.length !== b.length) {
        count.differences += Math.max(a.length, b.length);
        shown.push(`  ${set}/${name} ${featureSet}: ${a.length} values before, ${b.length} after`);
        continue;
      }
      for (let k = 0; k < a.length; k++) {
        if (a[k] === b[k]) continue;
        count.differences++;
        if (shown.length < 5) {
          const block = Math.floor(k / now.size);
          const f32 = (bits) => new Float32Array(new Uint32Array([bits]).buffer)[0];
          shown.push(
            `  ${set}/${name} ${featureSet} block ${block} ${now.specs[k % now.size].name}: ${f32(a[k])} before, ${f32(b[k])} after`,
          );
        }
      }
    }
  }
  for (const line of shown) console.log(line);
  console.log(
    `${set.padEnd(18)} ${String(count.pages).padStart(5)} pages ${String(count.blocks).padStart(8)} blocks ${String(count.values).padStart(11)} values, ${count.differences} differ`,
  );
  for (const k of Object.keys(totals)) totals[k] += count[k];
}
console.log(
  `all sets           ${String(totals.pages).padStart(5)} pages ${String(totals.blocks).padStart(8)} blocks ${String(totals.values).padStart(11)} values, ${totals.differences} differ`,
);
console.log(
  totals.differences === 0 ? "identical: every value of every row is the same, bit for bit" : `${totals.differences} values differ`,
);
process.exitCode = totals.differences === 0 ? 0 : 1;
