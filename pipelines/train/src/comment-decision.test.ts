// The held-out comment figures (PageScore.commentDecision) are those of the comment decision that
// `winnow clean --comments` makes (decideComments: the head's veto, then the markup rule), not of
// the head's veto alone: on a WordPress page whose head finds nothing, the markup's thread leaves
// the main text for the comments field and the reply form goes to neither.
import { readFileSync } from "node:fs";
import { type LabelledPage, wordScores } from "@winnow/evaluation";
import { TEXREX_CONTEXT } from "@winnow/features";
import { segmentHtml } from "@winnow/segment";
import { describe, expect, it } from "vitest";
import { buildDataset } from "./dataset.js";
import { THRESHOLD_CANDIDATES } from "./operating-points.js";
import { chooseCommentFieldThreshold, crossValidateMlp, scorePage } from "./evaluate.js";
import { chooseCommentThreshold, decideMlpComments, fitMlp, scoreMlpPages, withFallback } from "./mlp-fit.js";

const fixture = (name: string) => segmentHtml(readFileSync(new URL(`../../../fixtures/comments/${name}.html`, import.meta.url), "utf8"));
const thread = fixture("wordpress-thread");
const plain = fixture("no-comments");
const texts = thread.blocks.map((b) => b.text);
const article = texts.filter((t) => /^(Old apple|The first rule|Begin with|Finally|Clean, sharp)/.test(t)).join("\n\n");
const BODIES = ["We inherited a neglected Bramley", "That is lovely to hear", "Would you paint the larger cuts"];
const bodies = texts.filter((t) => BODIES.some((b) => t.startsWith(b))).join("\n\n");
/** The thread as the markup has it: each comment's author line, date line and body. */
const THREAD = texts.flatMap((t, b) => (/ says:$/.test(t) ? [b, b + 1, b + 2] : []));

function page(id: string, doc: typeof thread, comments: string): LabelledPage {
  const base = { id, url: `https://orchard.example/${id}`, domain: "orchard.example", pageType: "article", source: "news" };
  return { ...base, doc, gold: article, withSnippets: [], withoutSnippets: [], comments, language: "" };
}

// Comment gold on one page; the other, of the same set, has none.
const data = buildDataset([page("0001", thread, bodies), page("0002", plain, "")], TEXREX_CONTEXT);
const PAGES = [0, 1];
/** A model that keeps every block and whose head calls nothing a comment. */
const keepAll = () => PAGES.map((p) => new Float32Array(data.pages[p].doc.blocks.length).fill(0.9));
const headSaysNothing = () => PAGES.map((p) => new Float32Array(data.pages[p].doc.blocks.length).fill(0.1));
const KEEP = 0.5;
const COMMENT = 0.8808;

function figures(decided: { content: Float32Array[]; comments: Float32Array[] }) {
  return PAGES.map((p) => scorePage(data, p, decided.content[p], KEEP, 0, { comments: decided.comments[p], threshold: COMMENT }));
}

describe("held-out comment figures", () => {
  it("follow clean's decision: the markup's thread out of the main text and in the field, the form in neither", () => {
    const decided = decideMlpComments(data, PAGES, keepAll(), headSaysNothing(), COMMENT, KEEP);
    const [withComments, without] = figures(decided);
    const d = withComments.commentDecision!;
    expect(d.from).toBe("gold");
    expect(d.words).toBeGreaterThan(60);
    expect(d.wordsInMain).toBe(0);
    // The field is the thread, author and date lines with the bodies: every gold word, and those lines besides.
    const field = THREAD.map((b) => texts[b]).join("\n\n");
    expect(d.fieldF1).toBeCloseTo(wordScores(field, bodies).f1, 6);
    expect(d.fieldF1).toBeGreaterThan(0.8);
    for (const chrome of ["Leave a Reply", "Name *", "Reply"]) expect(decided.content[0][texts.indexOf(chrome)]).toBe(0);
    // The article stays main text; the page without comments gets an empty field.
    expect(withComments.f1).toBe(wordScores(texts.filter((_, b) => decided.content[0][b] >= KEEP).join("\n\n"), article).f1);
    expect(decided.content[0][texts.findIndex((t) => t.startsWith("Old apple"))]).toBeGreaterThan(KEEP);
    expect(without.commentDecision).toEqual({ from: "gold", words: 0, wordsInMain: 0, fieldEmpty: true });
  });

  it("count what the head's veto alone would leave: without the markup, every comment word stays in the main text", () => {
    const bare = { ...data, commentContexts: data.commentContexts.map(() => null) };
    const decided = decideMlpComments(bare, PAGES, keepAll(), headSaysNothing(), COMMENT, KEEP);
    const d = scorePage(bare, 0, decided.content[0], KEEP, 0, { comments: decided.comments[0], threshold: COMMENT }).commentDecision!;
    expect(d.wordsInMain).toBe(d.words);
    expect(d.fieldF1).toBe(0);
  });

  it("leave pages of a set without comment gold unscored, and score hand-labelled pages against their labels", () => {
    const other = { ...page("0003", thread, ""), source: "blogs" };
    const hand = texts.map((t) => (BODIES.some((b) => t.startsWith(b)) ? 1 : 0) as 0 | 1);
    const both = buildDataset([other, { ...other, id: "0004" }], TEXREX_CONTEXT, {
      commentLabels: [hand, undefined],
      commentLabelsTrain: false,
    });
    // Scored, not trained: the head's labels on the page are the markup rule's, as without the file.
    expect(both.commentHand?.trains).toBe(false);
    expect(Array.from(both.comments.subarray(0, texts.length))).toEqual(Array.from(both.comments.subarray(texts.length)));
    const content = [0, 1].map(() => new Float32Array(texts.length).fill(0.9));
    const decided = decideMlpComments(
      both,
      [0, 1],
      content,
      [0, 1].map(() => new Float32Array(texts.length)),
      COMMENT,
      KEEP,
    );
    const scored = [0, 1].map((p) =>
      scorePage(both, p, decided.content[p], KEEP, 0, { comments: decided.comments[p], threshold: COMMENT }),
    );
    expect(scored[0].commentDecision?.from).toBe("hand");
    expect(scored[0].commentDecision?.wordsInMain).toBe(0);
    expect(scored[1].commentDecision).toBeUndefined();
  });
});

describe("the held-out folds' comment thresholds", () => {
  it("are chosen on the other folds' held-out scores, pooled, as the shipped model's is on all of them", () => {
    // Three sets of ten pages, one domain each page: the WordPress post with its thread on every
    // page of the first, on every other page of the second, on none of the third.
    const every = { a: 1, b: 2, c: 0 };
    const sets = (["a", "b", "c"] as const).flatMap((source) =>
      Array.from({ length: 10 }, (_, i) => {
        const withThread = every[source] > 0 && i % every[source] === 0;
        return {
          ...page(`${source}${i}`, withThread ? thread : plain, withThread ? bodies : ""),
          source,
          domain: `${source}${i}.example`,
        };
      }),
    );
    const three = buildDataset(sets, TEXREX_CONTEXT);
    const options = { epochs: 2, hiddenSize: 4, ensemble: 1, commentHead: true, folds: 3, bySource: true };
    const report = crossValidateMlp(three, options);
    expect(report.commentThresholdsOutOfFold).toBe(true);
    expect(report.commentThresholds).toHaveLength(3);
    // Each fold again, by hand: its model's raw scores on its own set (training is seeded).
    const held = [0, 1, 2].map((s) => {
      const test = sets.flatMap((_, p) => (three.sourceOf[p] === s ? [p] : []));
      const fitted = fitMlp(
        three,
        sets.flatMap((_, p) => (three.sourceOf[p] === s ? [] : [p])),
        options,
      );
      return {
        test,
        content: scoreMlpPages(three, test, fitted.members),
        comments: scoreMlpPages(three, test, fitted.commentHead!.members),
      };
    });
    for (const f of [0, 1, 2]) {
      const others = held.filter((_, g) => g !== f);
      const pooled = chooseCommentThreshold(
        three,
        others.flatMap((o) => o.test),
        others.flatMap((o) => o.content),
        others.flatMap((o) => o.comments),
        undefined,
      );
      expect(report.commentThresholds?.[f]).toBe(pooled.threshold);
      // The field's threshold likewise: chosen on the other folds decided at that veto threshold.
      const decided = others.map((o, g) => {
        const fit = fitMlp(
          three,
          sets.flatMap((_, p) => (three.sourceOf[p] === [0, 1, 2].filter((x) => x !== f)[g] ? [] : [p])),
          options,
        );
        const d = decideMlpComments(three, o.test, o.content, o.comments, pooled.threshold, fit.threshold);
        return { ...o, scores: withFallback(d.content, fit.threshold, fit.emptyPageFallback), keep: fit.threshold, comments: d.comments };
      });
      const field = chooseCommentFieldThreshold(
        three,
        {
          pages: decided.flatMap((o) => o.test),
          scores: decided.flatMap((o) => o.scores),
          keep: decided.flatMap((o) => o.test.map(() => o.keep)),
          comments: decided.flatMap((o) => o.comments),
        },
        pooled.threshold,
      );
      expect(report.commentFieldThresholds?.[f]).toBe(field.threshold);
    }
    expect(report.commentHead?.fieldThreshold).toBeTypeOf("number");
    // The same folds read back instead of fitted (experiments/loso-replay.js) give the same report.
    const fits = [0, 1, 2].map((s) =>
      fitMlp(
        three,
        sets.flatMap((_, p) => (three.sourceOf[p] === s ? [] : [p])),
        options,
      ),
    );
    const read: number[] = [];
    const replayed = crossValidateMlp(three, options, (_train, test, f) => {
      expect(test).toEqual(held[f].test);
      read.push(f);
      return { fitted: fits[f], content: held[f].content, comments: held[f].comments };
    });
    expect(read).toEqual([0, 1, 2]);
    expect(replayed).toEqual(report);
    // Every page of the sets with comment gold is scored (the second set's five without comments
    // too), none of the third's.
    const scored = report.pages.filter((p) => p.commentDecision !== undefined);
    expect(scored).toHaveLength(20);
    expect(scored.filter((p) => p.commentDecision?.fieldEmpty !== undefined).map((p) => p.id)).toEqual(["b1", "b3", "b5", "b7", "b9"]);
  });
});

describe("the comments field's threshold", () => {
  // No markup rule (the head alone decides), the article kept, everything else dropped; the head
  // scores the comment bodies 0.6, under the veto threshold, and one block of the page without
  // comments 0.3.
  const bare = { ...data, commentContexts: data.commentContexts.map(() => null) };
  const content = PAGES.map((p) =>
    Float32Array.from(data.pages[p].doc.blocks, (b) =>
      /^(Old apple|The first rule|Begin with|Finally|Clean, sharp)/.test(b.text) ? 0.9 : 0.1,
    ),
  );
  const comments = PAGES.map((p) =>
    Float32Array.from(data.pages[p].doc.blocks, (b, k) =>
      BODIES.some((t) => b.text.startsWith(t)) ? 0.6 : p === 1 && k === 0 ? 0.3 : 0.05,
    ),
  );
  const decided = (on: typeof data) => {
    const d = decideMlpComments(on, PAGES, content, comments, COMMENT, KEEP);
    return { pages: PAGES, scores: d.content, keep: PAGES.map(() => KEEP), comments: d.comments };
  };

  it("is the lowest that finds the comments the veto threshold leaves out, without filling the field of a page without comments", () => {
    const chosen = chooseCommentFieldThreshold(bare, decided(bare), COMMENT);
    // Above 0.3 (the page without comments stays empty), at or under 0.6 (the bodies), the first candidate met from below.
    expect(chosen.threshold).toBe(THRESHOLD_CANDIDATES.find((t) => t > 0.3));
    expect(chosen.fieldEmpty).toBe(1);
    expect(chosen.fieldF1).toBeCloseTo(wordScores(texts.filter((t) => BODIES.some((b) => t.startsWith(b))).join("\n\n"), bodies).f1, 6);
    expect(chosen.fieldF1).toBeGreaterThan(0.9);
    // At the veto threshold the field was empty: F1 0.
    const d = decided(bare);
    const atVeto = scorePage(bare, 0, d.scores[0], KEEP, 0, { comments: d.comments[0], threshold: COMMENT }).commentDecision!;
    expect(atVeto.fieldF1).toBe(0);
    const atField = scorePage(bare, 0, d.scores[0], KEEP, 0, {
      comments: d.comments[0],
      threshold: COMMENT,
      fieldThreshold: chosen.threshold,
    }).commentDecision!;
    expect(atField.fieldF1).toBeCloseTo(chosen.fieldF1, 6);
    expect(atField.fieldPrecision).toBe(1);
  });

  it("stays the veto threshold where a lower one would fill the field of pages without comments", () => {
    const loud = PAGES.map((p, i) => (p === 1 ? Float32Array.from(comments[i], () => 0.7) : comments[i]));
    const d = decideMlpComments(bare, PAGES, content, loud, COMMENT, KEEP);
    const chosen = chooseCommentFieldThreshold(
      bare,
      { pages: PAGES, scores: d.content, keep: [KEEP, KEEP], comments: d.comments },
      COMMENT,
    );
    // 0.7 on the page without comments is above 0.6: every threshold that finds the bodies fills it too.
    expect(chosen.threshold).toBe(COMMENT);
    expect(chosen.fieldEmpty).toBe(1);
  });

  it("is the veto threshold where no page has known comments", () => {
    const none = buildDataset([{ ...page("0005", thread, ""), source: "blogs" }], TEXREX_CONTEXT);
    const d = decideMlpComments(none, [0], [content[0]], [comments[0]], COMMENT, KEEP);
    expect(
      chooseCommentFieldThreshold(none, { pages: [0], scores: d.content, keep: [KEEP], comments: d.comments }, COMMENT).threshold,
    ).toBe(COMMENT);
  });
});
