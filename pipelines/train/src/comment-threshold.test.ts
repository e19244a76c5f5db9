// The comment threshold's choice (chooseCommentThreshold) on small synthetic folds of the WordPress
// fixture: every set must keep its main text, not the pooled mean (a small set's loss counts as
// fully as a large one's: the 2-page set here is what a user's own few pages look like).
import { readFileSync } from "node:fs";
import type { LabelledPage } from "@winnow/evaluation";
import { TEXREX_CONTEXT } from "@winnow/features";
import { vetoComments } from "@winnow/models";
import { segmentHtml } from "@winnow/segment";
import { describe, expect, it } from "vitest";
import { buildDataset, type Dataset } from "./dataset.js";
import { chooseCommentThreshold, chooseThreshold } from "./mlp-fit.js";
import { THRESHOLD_CANDIDATES } from "./operating-points.js";

const fixture = (name: string) => segmentHtml(readFileSync(new URL(`../../../fixtures/comments/${name}.html`, import.meta.url), "utf8"));
const thread = fixture("wordpress-thread");
const plain = fixture("no-comments");
const ARTICLE = /^(Old apple|The first rule|Begin with|Finally|Clean, sharp)/;
const BODIES = /^(We inherited a neglected Bramley|That is lovely to hear|Would you paint the larger cuts)/;
const article = thread.blocks.filter((b) => ARTICLE.test(b.text)).map((b) => b.text);
const bodies = thread.blocks.filter((b) => BODIES.test(b.text)).map((b) => b.text);
const NEVER = 2;

/** `count` pages of one set, each its own domain: the thread page with or without comment gold, or the page without comments. */
function set(source: string, count: number, doc: typeof thread, options: { comments?: string; gold?: string } = {}): LabelledPage[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${source}${i}`,
    url: `https://${source}${i}.example/pruning`,
    domain: `${source}${i}.example`,
    pageType: "article",
    source,
    doc,
    gold: options.gold ?? article.join("\n\n"),
    withSnippets: [],
    withoutSnippets: [],
    comments: options.comments ?? "",
    language: "",
  }));
}

/** Per page, a score for each block from `score(text, page's source, the block's row in data)`. */
function scores(data: Dataset, score: (text: string, source: string, row: number) => number): Float32Array[] {
  return data.pages.map((page, p) => Float32Array.from(page.doc.blocks, (b, k) => score(b.text, page.source, data.firstRow[p] + k)));
}

const all = (data: Dataset) => data.pages.map((_, p) => p);

describe("the comment threshold", () => {
  it("costs no set its main text, even where the pooled mean would pay for one set's loss with another's gain", () => {
    // News pages keep their comments as main text, and the gold leaves them out: the veto helps
    // them. On two essays the head calls an article paragraph a comment as surely as the
    // comments: any threshold that finds the comments drops that paragraph there.
    const data = buildDataset([...set("news", 8, thread, { comments: bodies.join("\n\n") }), ...set("essays", 2, plain)], TEXREX_CONTEXT);
    const content = scores(data, (t) => (ARTICLE.test(t) || BODIES.test(t) ? 0.9 : 0.1));
    const head = scores(data, (t, source) => (BODIES.test(t) || (source === "essays" && t.startsWith("The first rule")) ? 0.75 : 0.05));
    // The pooled mean gains at 0.7311, the essays lose: a pooled cost would have let it through.
    const vetoed = content.map((s) => Float32Array.from(s));
    vetoComments(vetoed, head, 0.7311);
    expect(chooseThreshold(data, all(data), vetoed).f1).toBeGreaterThan(chooseThreshold(data, all(data), content).f1 + 0.01);
    const essays = all(data).filter((p) => data.pages[p].source === "essays");
    const essayScores = (s: Float32Array[]) => essays.map((p) => s[p]);
    expect(chooseThreshold(data, essays, essayScores(vetoed)).f1).toBeLessThan(
      chooseThreshold(data, essays, essayScores(content)).f1 - 0.05,
    );
    expect(chooseCommentThreshold(data, all(data), content, head, undefined).threshold).toBe(NEVER);
    // Without the essays, the lowest threshold that finds the comments and vetoes nothing else.
    const news = all(data).filter((p) => data.pages[p].source === "news");
    const chosen = chooseCommentThreshold(
      data,
      news,
      news.map((p) => content[p]),
      news.map((p) => head[p]),
      undefined,
    );
    expect(chosen.threshold).toBe(THRESHOLD_CANDIDATES.find((t) => t > 0.05));
    expect(chosen.commentF1).toBeGreaterThan(0.9);
  });
});
