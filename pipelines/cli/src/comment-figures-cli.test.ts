// winnow train --loso's comment figures: each held-out set's pages decided as `winnow clean
// --comments` decides them, given per set with comment gold and per set's hand-labelled pages
// (--score-comment-labels scores label files without training on them).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readModelInfo } from "@winnow/models";
import { writeLastBlockCommentLabel } from "../test/comment-label-fixture.js";
import { runWinnow, stderrMessages } from "../test/run-winnow.js";

const WCXB = fileURLToPath(new URL("../../../fixtures/wcxb-sample", import.meta.url));
const COMMENTS = fileURLToPath(new URL("../../../fixtures/comments", import.meta.url));
const QUICK = ["--epochs", "2", "--hidden", "8", "--ensemble", "1"];

let dir: string;
let news: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-comment-figures-"));
  // A set with comment gold, in WCXB's layout: a WordPress post with a thread, and one without comments.
  news = join(dir, "news");
  mkdirSync(join(news, "html"), { recursive: true });
  mkdirSync(join(news, "ground-truth"));
  const files: Record<string, object> = {};
  for (const [id, name] of [
    ["0001", "wordpress-thread"],
    ["0002", "no-comments"],
  ]) {
    const html = readFileSync(join(COMMENTS, `${name}.html`), "utf8");
    // The post's paragraphs are its main text, the three comments' bodies its comment gold.
    const paragraphs = [...html.matchAll(/<p>([^<]{100,})<\/p>/g)].map((m) => m[1]);
    const isComment = (t: string) => /^(We inherited|That is lovely|Would you)/.test(t);
    const article = paragraphs.filter((t) => !isComment(t)).join("\n\n");
    const comments = paragraphs.filter(isComment).join("\n\n");
    writeFileSync(join(news, "html", `${id}.html.gz`), gzipSync(html));
    const truth = { url: `https://orchard.example/${id}`, file_id: id, ground_truth: { main_content: article, comments } };
    writeFileSync(join(news, "ground-truth", `${id}.json`), JSON.stringify(truth));
    files[id] = { page_type: "article", domain: `site${id}.example` };
  }
  writeFileSync(join(news, "metadata.json"), JSON.stringify({ files }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("winnow train --loso, comment figures", () => {
  it("gives them per set with comment gold and per set's hand-labelled pages, and the folds' comment thresholds", async () => {
    const labels = await writeLastBlockCommentLabel(join(dir, "labels"), WCXB);
    const model = join(dir, "m.onnx");
    const r = await runWinnow(["train", "--loso", "--data", news, WCXB, "-o", model, "--score-comment-labels", labels, ...QUICK], dir);
    expect(r.stderr).not.toMatch(/internal error/);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/comment labels of 1 page from .* score the held-out comment figures only/);
    expect(r.stdout).toMatch(
      /comment thresholds chosen on the other folds. held-out scores, pooled: (never|\d\.\d{4}), (never|\d\.\d{4})\n/,
    );
    expect(r.stdout).toMatch(/comments field thresholds chosen likewise, .*: (never|\d\.\d{4}), (never|\d\.\d{4})\n/);
    // The model file carries the field threshold chosen on every fold's held-out pages.
    expect((await readModelInfo(model)).commentFieldThreshold).toBeTypeOf("number");
    expect(r.stdout).toContain("user comments as clean --comments decides them");
    // One page with comments and one without in the set with comment gold; the hand-labelled page has a comment.
    expect(r.stdout).toMatch(/ news \(comment gold\) +1\/1 +\d+\.\d% +\d\.\d{3} +[01]\.\d{3}\n/);
    expect(r.stdout).toMatch(/ wcxb-sample \(hand labels\) +1\/0 +\d+\.\d% +\d\.\d{3} +-\n/);
  }, 180_000);

  it("refuses --score-comment-labels without held-out figures, or with --comment-labels, as usage errors", async () => {
    const bare = await runWinnow(["train", "--data", WCXB, "-o", join(dir, "x.onnx"), "--score-comment-labels", dir], dir);
    expect(bare.code).toBe(2);
    expect(stderrMessages(bare.stderr).join("\n")).toMatch(/--score-comment-labels gives held-out figures: it needs --loso or --folds/);
    const both = await runWinnow(
      ["train", "--loso", "--data", news, WCXB, "-o", join(dir, "y.onnx"), "--score-comment-labels", dir, "--comment-labels", dir],
      dir,
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--score-comment-labels and --comment-labels both name label folders/);
  });
});
