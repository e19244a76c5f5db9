#!/usr/bin/env node
/**
 * Writes a trained MLP's `comments` field threshold (winnow.comment_field_threshold) from saved
 * held-out scores, without retraining it and without changing a byte of it: the threshold is
 * chosen as `winnow train --loso` chooses it (chooseCommentFieldThreshold), on the held-out folds
 * that `experiments/comments-loso-full.js --save DIR` kept (each set scored by a model of the same
 * recipe trained on the other sets), each decided as clean decides it at the model's own comment
 * (veto) threshold; then appended to the model's metadata (appendModelMetadata: every earlier
 * byte unchanged). For a shipped model whose training run predates the field threshold.
 *
 *   npm run build && node experiments/write-field-threshold.js --model IN.onnx --saved DIR \
 *     --out OUT.onnx [--sets l3s-gn1,googletrends-2017] [--data ROOT]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadLabelledSources } from "@winnow/evaluation";
import { TEXREX_CONTEXT } from "@winnow/features";
import { appendModelMetadata, COMMENT_FIELD_THRESHOLD_KEY, readModelInfo } from "@winnow/models";
import { buildDataset, chooseCommentFieldThreshold } from "@winnow/train";
import { parseFlags } from "../benchmarks/lib/common.js";
import { decideMlpComments, withFallback } from "../pipelines/train/dist/mlp-fit.js";

const flags = parseFlags(process.argv.slice(2), []);
for (const name of ["model", "saved", "out"]) if (typeof flags[name] !== "string") throw new Error(`--${name} is required`);
if (resolve(flags.out) === resolve(flags.model)) throw new Error("--out must not be --model: write a copy, compare, then replace");
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const sets = (flags.sets ?? "l3s-gn1,googletrends-2017").split(",");
const info = await readModelInfo(flags.model);
if (info.commentThreshold === undefined) throw new Error(`${flags.model} has no comment head`);
const veto = info.commentThreshold;

const data = buildDataset(await loadLabelledSources(sets.map((s) => `${root}/${s}`)), TEXREX_CONTEXT);
const decided = { pages: [], scores: [], keep: [], comments: [] };
for (const source of sets) {
  const s = data.sources.indexOf(source);
  const test = [];
  data.sourceOf.forEach((of, p) => of === s && test.push(p));
  const saved = JSON.parse(readFileSync(join(flags.saved, `${source}.json`), "utf8"));
  if (saved.content.length !== test.length) throw new Error(`${source}: ${saved.content.length} saved pages, ${test.length} loaded`);
  const d = decideMlpComments(
    data,
    test,
    saved.content.map((a) => Float32Array.from(a)),
    saved.comments.map((a) => Float32Array.from(a)),
    veto,
    saved.threshold,
  );
  decided.pages.push(...test);
  decided.scores.push(...withFallback(d.content, saved.threshold, saved.emptyPageFallback));
  decided.keep.push(...test.map(() => saved.threshold));
  decided.comments.push(...d.comments);
}
const chosen = chooseCommentFieldThreshold(data, decided, veto);
console.log(
  `${flags.model}: comment (veto) threshold ${veto}; field threshold chosen on ${sets.join(" + ")} held out: ${chosen.threshold} ` +
    `(field F1 ${chosen.fieldF1.toFixed(4)}, field empty ${chosen.fieldEmpty.toFixed(4)} on pages without comments)`,
);
writeFileSync(flags.out, appendModelMetadata(readFileSync(flags.model), { [COMMENT_FIELD_THRESHOLD_KEY]: String(chosen.threshold) }));
console.log(`wrote ${flags.out}`);
