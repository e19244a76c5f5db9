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
 * --train-labels DIR: the training pages that have a hand comment label file in DIR/SET/
 * (experiments/labels/comments) get their comment positives and negatives from it, not from their
 * comment gold or the markup rule. --eval-labels DIR: each held-out set is also scored on its
 * hand-labelled pages (comments-eval.js --comment-labels), so any set with label files can be
 * held out; a set outside the five is scored by one model trained on all five, trained once. The
 * lines printed for the comment-gold sets stay as they were.
 *
 *   npm run build && node experiments/comments-loso.js --out DIR [--data DIR] [--sets l3s-gn1,googletrends-2017]
 *     [--reuse] [--pages] [--train-labels DIR] [--eval-labels DIR]
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadLabelledSources } from "@winnow/evaluation";
import { TEXREX_CONTEXT } from "@winnow/features";
import { commentLabelsFromFiles, readLabelDirsBySource, trainModel } from "@winnow/train";
import { parseFlags } from "../benchmarks/lib/common.js";

const flags = parseFlags(process.argv.slice(2), ["reuse", "pages"]);
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
if (typeof flags.out !== "string") throw new Error("--out DIR: where the models and tables go");
mkdirSync(flags.out, { recursive: true });
const all = ["wcxb-dev", "cleaneval", "l3s-gn1", "googletrends-2017", "magic-html"];
/** Models trained in this run, by the sets they were trained on: a set outside the five reuses the five's. */
const trained = new Map();
for (const heldOut of (flags.sets ?? "l3s-gn1,googletrends-2017").split(",")) {
  const sets = all.filter((s) => s !== heldOut);
  const model = join(flags.out, sets.length === all.length ? "five-sets.onnx" : `without-${heldOut}.onnx`);
  if (flags.reuse && existsSync(model) && !trained.has(model)) {
    console.log(`${heldOut} left out: reusing ${model}`);
    trained.set(model, null);
  } else if (!trained.has(model)) {
    const pages = await loadLabelledSources(sets.map((s) => `${root}/${s}`));
    const started = Date.now();
    const commentLabels = flags["train-labels"]
      ? commentLabelsFromFiles(pages, await readLabelDirsBySource(flags["train-labels"], sets))
      : undefined;
    const result = await trainModel({
      pages,
      featureSet: TEXREX_CONTEXT,
      output: model,
      hiddenSize: 32,
      ensemble: 1,
      commentHead: true,
      commentLabels,
    });
    trained.set(model, result);
    console.log(
      `${heldOut} left out: trained on ${pages.length} pages in ${((Date.now() - started) / 1000).toFixed(0)} s, comment threshold ${result.info.commentThreshold}`,
    );
    if (commentLabels) console.log(`  ${commentLabels.filter((l) => l !== undefined).length} training pages with hand comment labels`);
  } else
    console.log(
      `${heldOut} left out: the model of the five sets, comment threshold ${trained.get(model)?.info.commentThreshold ?? "(reused)"}`,
    );
  // The comment-gold views where the set has comment gold, the hand labels' where it has label files.
  const views = ["l3s-gn1", "googletrends-2017"].includes(heldOut)
    ? [
        ["gold", ["--view", "gold"]],
        ["read", ["--view", "read"]],
      ]
    : [];
  if (flags["eval-labels"] && existsSync(join(flags["eval-labels"], heldOut)))
    views.push(["labels", ["--comment-labels", flags["eval-labels"]]]);
  for (const [view, args] of views) {
    const evalArgs = ["--model", model, "--sets", heldOut, "--data", root, ...args, ...(flags.pages ? ["--pages"] : [])];
    const output = execFileSync(process.execPath, [new URL("comments-eval.js", import.meta.url).pathname, ...evalArgs], {
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
