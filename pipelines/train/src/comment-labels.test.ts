// The comment head's training labels (Dataset.comments) on a WordPress page with a thread and a
// reply form: comment gold where a set has it, the thread by the markup rule where it has none,
// and never the form, its notes, the section title or the reply links; hand labels over both.
import { readFileSync } from "node:fs";
import type { LabelledPage } from "@winnow/evaluation";
import { TEXREX_CONTEXT } from "@winnow/features";
import { segmentHtml } from "@winnow/segment";
import { describe, expect, it } from "vitest";
import { buildDataset, selectPages } from "./dataset.js";
import { chooseCommentThreshold, commentHeadWeights } from "./mlp-fit.js";

const html = readFileSync(new URL("../../../fixtures/comments/wordpress-thread.html", import.meta.url), "utf8");
const doc = segmentHtml(html);
const texts = doc.blocks.map((b) => b.text);
const article = texts.filter((t) => t.startsWith("Old apple") || t.startsWith("The first rule") || t.startsWith("Begin with")).join("\n\n");
const FORM = ["Leave a Reply", "Your email address will not be published. Required fields are marked *", "Name *", "Email *", "Website"];
const BODIES = ["We inherited a neglected Bramley", "That is lovely to hear", "Would you paint the larger cuts"];

function page(source: string, comments: string): LabelledPage {
  const base = { id: "0001", url: "https://orchard.example/pruning", domain: "orchard.example", pageType: "article" };
  return { ...base, source, doc, gold: article, withSnippets: [], withoutSnippets: [], comments, language: "" };
}

/** Texts of the blocks labelled as comments. */
function labelled(pages: LabelledPage[], p: number, hand?: Parameters<typeof buildDataset>[2]["commentLabels"]): string[] {
  const data = buildDataset(pages, TEXREX_CONTEXT, { commentLabels: hand });
  return texts.filter((_, b) => data.comments[data.firstRow[p] + b] === 1);
}

/** Hand labels as label-ui's comment key makes them: the first comment's body only, its Reply link left open. */
const FIRST_BODY = texts.findIndex((t) => t.startsWith(BODIES[0]));
const REPLY = texts.indexOf("Reply");
const handLabels = texts.map((_, b) => (b === FIRST_BODY ? 1 : b === REPLY ? null : 0));

describe("comment labels", () => {
  it("label the thread by the markup rule where the set has no comment gold, never the form", () => {
    const said = labelled([page("blogs", "")], 0);
    for (const body of BODIES) expect(said.some((t) => t.startsWith(body))).toBe(true);
    expect(said).toContain("Tobias Wren says:");
    for (const chrome of [...FORM, "Reply"]) expect(said).not.toContain(chrome);
    expect(said.some((t) => t.startsWith("3 thoughts on"))).toBe(false);
    expect(said.some((t) => t.startsWith("Old apple"))).toBe(false);
  });

  it("follow the comment gold where there is one, less the form a set's gold counts as comments", () => {
    // Comment gold in the manner of L3S-GN1: the reply form's title, notes and labels with the comments.
    const gold = [...texts.filter((t) => BODIES.some((b) => t.startsWith(b))), ...FORM].join("\n\n");
    const said = labelled([page("news", gold)], 0);
    expect(said.filter((t) => BODIES.some((b) => t.startsWith(b)))).toHaveLength(3);
    for (const chrome of FORM) expect(said).not.toContain(chrome);
  });

  it("follow a page's hand labels over both the comment gold and the markup rule", () => {
    const gold = texts.filter((t) => BODIES.some((b) => t.startsWith(b))).join("\n\n");
    for (const source of ["blogs", "news"]) {
      const said = labelled([page(source, source === "news" ? gold : "")], 0, [handLabels]);
      expect(said).toEqual([texts[FIRST_BODY]]);
    }
    // A page without hand labels beside one with them keeps the rule's labels.
    expect(labelled([page("blogs", ""), page("blogs", "")], 1, [handLabels, undefined]).length).toBeGreaterThan(3);
    const data = buildDataset([page("blogs", "")], TEXREX_CONTEXT, { commentLabels: [handLabels] });
    expect(data.commentHand?.pages[0]).toBe(1);
    expect(data.commentHand?.known[REPLY]).toBe(0);
    expect(data.commentHand?.known[FIRST_BODY]).toBe(1);
  });

  it("train the head on a hand-labelled comment that the main text ignores (a set whose gold keeps comments)", () => {
    // The gold keeps every comment as main text, as CleanEval's does: the main text gives those
    // blocks no weight (Dataset.dontCare), the comment head gives them their hand labels' weight.
    const keeps = { ...page("cleaneval", ""), gold: texts.join("\n\n") };
    const data = buildDataset([keeps], TEXREX_CONTEXT, { commentLabels: [handLabels] });
    expect(data.dontCare[FIRST_BODY]).toBe(1);
    const subset = selectPages(data, [0]);
    expect(subset.known?.[FIRST_BODY]).toBe(0);
    const weights = commentHeadWeights(data, [0], subset, {})!;
    expect(weights[FIRST_BODY]).toBeGreaterThan(0);
    expect(weights[REPLY]).toBe(0);
    expect(commentHeadWeights(buildDataset([keeps], TEXREX_CONTEXT), [0], subset, {})).toBeUndefined();
  });

  it("choose the comment threshold without counting as a loss the comments a page's gold keeps as main text", () => {
    // The gold keeps the comments (CleanEval's way); the head finds the hand-labelled one exactly.
    const keeps = { ...page("cleaneval", ""), gold: texts.join("\n\n") };
    const content = [new Float32Array(texts.length).fill(1)];
    const comments = [Float32Array.from(texts, (_, b) => (b === FIRST_BODY ? 1 : 0))];
    const withHand = buildDataset([keeps], TEXREX_CONTEXT, { commentLabels: [handLabels] });
    expect(chooseCommentThreshold(withHand, [0], content, comments, undefined).threshold).toBeLessThanOrEqual(1);
    // Scored against that gold, taking the comment out costs the main text: never is chosen, as before.
    const rule = buildDataset([keeps], TEXREX_CONTEXT);
    rule.comments.fill(0);
    rule.comments[FIRST_BODY] = 1;
    expect(chooseCommentThreshold(rule, [0], content, comments, undefined).threshold).toBe(2);
  });
});
