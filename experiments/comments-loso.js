#!/usr/bin/env node
/**
 * The comment head held out, set by set: for each set with comment gold (l3s-gn1,
 * googletrends-2017), an MLP with a comment head is trained on the other four shared sets (the
 * shipped recipe with one member instead of three, to fit a busy machine), written as a model file,
 * and the held-out set is then cleaned with it by experiments/comments-eval.js, comment markup
 * rule included. The training labels are whatever this build's dataset makes (buildDataset).
 *
 * --reuse skips the training where DIR already holds the fold's model (a rule changed, not the
 * labels: the same models, cleaned again); --pages also writes each fold's and view's per-page
 * figures (comments-eval.js --pages) to DIR/heldout-SET-VIEW.txt.
 *
 *   npm run build && node experiments/comments-loso.js --out DIR [--data DIR] [--sets l3s-gn1,googletrends-2017] [--reuse] [--pages]
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadLabelledSources } from "@winnow/evaluation";
import { TEXREX_CONTEXT } from "@winnow/features";
import { trainModel } from "@winnow/train";
import { parseFlags } from "../benchmarks/lib/common.js";

const flags = parseFlags(process.argv.slice(2), ["reuse", "pages"]);
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
if (typeof flags.out !== "string") throw new Error("--out DIR: where the models and tables go");
mkdirSync(flags.out, { recursive: true });
const all = ["wcxb-dev", "cleaneval", "l3s-gn1", "googletrends-2017", "magic-html"];
for (const heldOut of (flags.sets ?? "l3s-gn1,googletrends-2017").split(",")) {
  const model = join(flags.out, `without-${heldOut}.onnx`);
  if (flags.reuse && existsSync(model)) console.log(`${heldOut} left out: reusing ${model}`);
  else {
    const pages = await loadLabelledSources(all.filter((s) => s !== heldOut).map((s) => `${root}/${s}`));
    const started = Date.now();
    const result = await trainModel({ pages, featureSet: TEXREX_CONTEXT, output: model, hiddenSize: 32, ensemble: 1, commentHead: true });
    console.log(
      `${heldOut} left out: trained on ${pages.length} pages in ${((Date.now() - started) / 1000).toFixed(0)} s, comment threshold ${result.info.commentThreshold}`,
    );
  }
  for (const view of ["gold", "read"]) {
    const args = ["--model", model, "--sets", heldOut, "--data", root, "--view", view, ...(flags.pages ? ["--pages"] : [])];
    const output = execFileSync(process.execPath, [new URL("comments-eval.js", import.meta.url).pathname, ...args], {
      encoding: "utf8",
    });
    const at = output.indexOf("| set |");
    const table = output.slice(at).split("\n");
    console.log(`view ${view}:\n${table.slice(0, 3).join("\n")}`);
    // The field's precision and recall (the second table comments-eval.js prints).
    console.log(table.slice(5, 8).join("\n"));
    if (flags.pages) writeFileSync(join(flags.out, `heldout-${heldOut}-${view}.txt`), output);
  }
}
