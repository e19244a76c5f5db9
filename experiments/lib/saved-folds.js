/**
 * Held-out folds that `experiments/comments-loso-full.js --save DIR` keeps, one file per set
 * (DIR/SET.json: the set's pages scored by the content and comment heads of a model trained on
 * the other sets, before any comment decision, and that model's thresholds), read back and
 * decided as `winnow clean` decides them. One reader for the scripts that study the comment
 * decision on them offline (comment-field.js, comment-main.js) and for comments-loso-full.js's
 * `--reuse`, so that a change to the file's shape is made in one place.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { decideMlpComments, withFallback } from "../../pipelines/train/dist/mlp-fit.js";

/** The dataset's pages of `source`, in the order the fold saved them. */
export function pagesOf(data, source) {
  const s = data.sources.indexOf(source);
  if (s < 0) throw new Error(`${source} is not one of ${data.sources.join(", ")}`);
  const test = [];
  data.sourceOf.forEach((of, p) => of === s && test.push(p));
  return test;
}

/**
 * The saved fold of `source` (its JSON with `content` and `comments` as Float32Arrays, and `test`,
 * the dataset's pages it scored), or undefined where DIR has none.
 */
export function readSavedFold(dir, data, source) {
  const file = join(dir, `${source}.json`);
  if (!existsSync(file)) return undefined;
  const saved = JSON.parse(readFileSync(file, "utf8"));
  const test = pagesOf(data, source);
  if (saved.content.length !== test.length) throw new Error(`${file}: ${saved.content.length} saved pages, ${test.length} loaded`);
  return {
    ...saved,
    test,
    content: saved.content.map((a) => Float32Array.from(a)),
    comments: saved.comments.map((a) => Float32Array.from(a)),
  };
}

/**
 * A fold's pages decided as `winnow clean --comments` decides them at the veto threshold `vetoAt`:
 * the final content scores (the empty-page fallback applied), the content scores before it
 * (`undecided`), and the decided comment scores.
 */
export function decideSavedFold(data, fold, vetoAt) {
  const decided = decideMlpComments(data, fold.test, fold.content, fold.comments, vetoAt, fold.threshold);
  return {
    scores: withFallback(decided.content, fold.threshold, fold.emptyPageFallback),
    undecided: decided.content,
    comments: decided.comments,
  };
}
