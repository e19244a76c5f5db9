#!/usr/bin/env node
/**
 * The comment head held out, set by set: for each set with comment gold (l3s-gn1,
 * googletrends-2017), an MLP with a comment head is trained on the other four shared sets (the
 * shipped recipe with one member instead of three, to fit a busy machine), written as a model file,
 * and the held-out set is then cleaned with it by experiments/comments-eval.js, comment markup
 * rule included. The training labels are whatever this build's dataset makes (buildDataset).
 *
 *   npm run build && node experiments/comments-loso.js --out DIR [--data DIR] [--sets l3s-gn1,googletrends-2017]
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { loadLabelledSources } from "@winnow/evaluation";
import { TEXREX_CONTEXT } from "@winnow/features";
import { trainModel } from "@winnow/train";
import { parseFlags } from "../benchmarks/lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
if (typeof flags.out !== "string") throw new Error("--out DIR: where the models and tables go");
mkdirSync(flags.out, { recursive: true });
const all = ["wcxb-dev", "cleaneval", "l3s-gn1", "googletrends-2017", "magic-html"];
for (const heldOut of (flags.sets ?? "l3s-gn1,googletrends-2017").split(",")) {
  const pages = await loadLabelledSources(all.filter((s) => s !== heldOut).map((s) => `${root}/${s}`));
  const model = join(flags.out, `without-${heldOut}.onnx`);
  const started = Date.now();
  const result = await trainModel({ pages, featureSet: TEXREX_CONTEXT, output: model, hiddenSize: 32, ensemble: 1, commentHead: true });
  console.log(
    `${heldOut} left out: trained on ${pages.length} pages in ${((Date.now() - started) / 1000).toFixed(0)} s, comment threshold ${result.info.commentThreshold}`,
  );
  for (const view of ["gold", "read"]) {
    const table = execFileSync(
      process.execPath,
      [new URL("comments-eval.js", import.meta.url).pathname, "--model", model, "--sets", heldOut, "--data", root, "--view", view],
      { encoding: "utf8" },
    );
    console.log(`view ${view}:\n${table.split("\n").slice(0, 3).join("\n")}`);
  }
}
