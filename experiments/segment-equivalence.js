#!/usr/bin/env node
/**
 * Does a change to the segmenter change what the models see? Segments every page of the labelled
 * sets with an earlier build's segmenter and this build's (with the metadata observer, as
 * `winnow clean` runs it), and compares every field of every block that features and models read
 * (all but `layout`, which only writers read). Zero differences means leave-one-source-out F1 and
 * every other quality figure are unchanged by construction, without a multi-hour LOSO run.
 *
 *   npx tsc -b && node experiments/segment-equivalence.js --before OTHER_CHECKOUT [--data DIR]
 *   (OTHER_CHECKOUT: a checkout of the earlier commit with packages/segment built and its own
 *   node_modules: segment uses htmlparser2 12 from packages/segment/node_modules, not the root's 10)
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { decodeHtmlPieces } from "@winnow/archive";
import { MetadataCollector } from "@winnow/metadata";
import { parseFlags } from "../benchmarks/lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
if (flags.before === undefined && flags.digests === undefined) throw new Error("--before OTHER_CHECKOUT is needed");
const data = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const SETS = ["wcxb-dev", "cleaneval", "l3s-gn1", "googletrends-2017", "magic-html", "cleanportaleval", "newspaper3k", "chinese-wce"];

/**
 * A block as features and models read it: every field but the writers' layout, and repeatOf,
 * which builds before issue 35 do not have (it links copies of one text; only the repeated-block
 * rule after scoring reads it, so a page whose blocks are otherwise equal is scored the same).
 */
const seen = (block) => JSON.stringify({ ...block, layout: undefined, repeatOf: undefined });

/**
 * One digest per page of what the models read, from the segmenter of `checkout` (this build's
 * when none, with the metadata observer as clean runs it). Each build runs in a process of its
 * own: two copies of the skipping tokenizer in one process trip over each other in htmlparser2.
 */
async function digests(checkout) {
  const segment = await import(pathToFileURL(join(checkout, "packages/segment/dist/index.js")).href);
  // Reused page after page, as clean runs it.
  const segmenter = new segment.Segmenter();
  const collector = checkout === flags.here ? new MetadataCollector() : undefined;
  const out = {};
  for (const set of SETS) {
    const dir = join(data, set, "html");
    for (const name of readdirSync(dir).sort()) {
      const { pieces } = decodeHtmlPieces(gunzipSync(readFileSync(join(dir, name))), "");
      const doc = segmenter.segment(pieces, collector);
      collector?.finish("");
      const hash = createHash("sha1").update(doc.title).update(String(doc.textChars)).update(String(doc.markupChars));
      for (const block of doc.blocks) hash.update(seen(block));
      out[`${set}/${name}`] = [doc.blocks.length, hash.digest("hex")];
    }
  }
  return out;
}

if (flags.digests !== undefined) {
  process.stdout.write(JSON.stringify(await digests(flags.digests)));
} else {
  const here = fileURLToPath(new URL("..", import.meta.url));
  const run = (checkout) =>
    JSON.parse(
      execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--digests", checkout, "--here", here, "--data", data], {
        maxBuffer: 1 << 28,
        encoding: "utf8",
      }),
    );
  const [a, b] = [run(flags.before), run(here)];
  let allDifferent = 0;
  for (const set of SETS) {
    const keys = Object.keys(b).filter((k) => k.startsWith(`${set}/`));
    let blocks = 0;
    let different = 0;
    for (const k of keys) {
      blocks += b[k][0];
      if (a[k]?.[1] !== b[k][1]) {
        different++;
        if (different <= 3) console.log(`  ${k}: differs`);
      }
    }
    allDifferent += different;
    console.log(
      `${set.padEnd(18)} ${String(keys.length).padStart(5)} pages ${String(blocks).padStart(8)} blocks, ${different} pages differ`,
    );
  }
  console.log(allDifferent === 0 ? "identical: every block the models read is the same" : `${allDifferent} pages differ`);
  process.exitCode = allDifferent === 0 ? 0 : 1;
}
