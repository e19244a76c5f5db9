import { readdirSync, readFileSync } from "node:fs";
import { segmentHtml } from "@winnow/segment";
import { describe, expect, it } from "vitest";
import { TEXREX_CONTEXT, TEXREX_STRUCTURE, featureSetByName } from "./feature-sets.js";

const PAGES = new URL("../../../fixtures/page-cards/", import.meta.url);

type Row = Record<string, number> & { text: string };

/** The structure values of every block of a fixture page, by name, with the block's text. */
function structure(file: string): Row[] {
  const doc = segmentHtml(readFileSync(new URL(file, PAGES), "utf8"));
  const rows = TEXREX_STRUCTURE.extract(doc);
  return doc.blocks.map((block, b) => {
    const out = { text: block.text } as Row;
    TEXREX_STRUCTURE.specs.forEach((spec, k) => {
      if (spec.group === "structure") out[spec.name] = rows[b * TEXREX_STRUCTURE.size + k];
    });
    return out;
  });
}

function block(rows: Row[], start: string): Row {
  const found = rows.find((r) => r.text.startsWith(start));
  if (found === undefined) throw new Error(`no block starts with "${start}"`);
  return found;
}

const MAIN_PARAGRAPHS = ["The council voted", "Supporters of the plan", "Opponents, led by"];

describe("texrex37+ext+ctx+struct", () => {
  it("is the context set's 133 values, value for value, then its own", () => {
    expect(featureSetByName("texrex37+ext+ctx+struct")).toBe(TEXREX_STRUCTURE);
    expect(TEXREX_STRUCTURE.version).toBe(1);
    expect(TEXREX_STRUCTURE.size).toBe(TEXREX_CONTEXT.size + 13);
    for (const file of readdirSync(PAGES)) {
      const doc = segmentHtml(readFileSync(new URL(file, PAGES), "utf8"));
      const ctx = TEXREX_CONTEXT.extract(doc);
      const all = TEXREX_STRUCTURE.extract(doc);
      for (let b = 0; b < doc.blocks.length; b++) {
        const own = all.subarray(b * TEXREX_STRUCTURE.size, b * TEXREX_STRUCTURE.size + TEXREX_CONTEXT.size);
        expect(Array.from(own)).toEqual(Array.from(ctx.subarray(b * TEXREX_CONTEXT.size, (b + 1) * TEXREX_CONTEXT.size)));
      }
    }
  });

  it("a grid of six linked-heading cards inside the article: each card a grid card, nested, after the main text's end", () => {
    const rows = structure("card-grid.html");
    for (const start of ["Bridge repairs", "Work on the river", "Autumn fair", "The money goes"]) {
      const card = block(rows, start);
      expect(card, start).toMatchObject({ card_class: 1, nested_card: 1, section_linked_heading: 1, grid_card: 1, after_main_end: 1 });
      // Six cards: six sections share the heading's shape, and the description's.
      expect(card.shape_sections).toBeCloseTo(Math.log1p(6) / Math.log1p(20), 5);
    }
    for (const start of MAIN_PARAGRAPHS) {
      expect(block(rows, start), start).toMatchObject({ card_class: 0, nested_card: 0, grid_card: 0, after_main_end: 0 });
    }
    expect(block(rows, "Opponents").shape_sections).toBeCloseTo(Math.log1p(1) / Math.log1p(20), 5);
    // The cards' text over the page's: the twelve card blocks are in shapes of six sections.
    const cardChars = rows.filter((r) => r.grid_card === 1).reduce((sum, r) => sum + r.text.length, 0);
    const pageChars = rows.reduce((sum, r) => sum + r.text.length, 0);
    expect(rows[0].page_grid_share).toBeCloseTo(cardChars / pageChars, 5);
    expect(block(rows, "More from the town")).toMatchObject({ grid_card: 0, after_main_end: 1 });
  });

  it("an <article> card nested in the main <article>: article nesting 2, a nested card, not a grid", () => {
    const rows = structure("nested-card.html");
    for (const start of ["Libraries across the county", "Five branches were closed"]) {
      expect(block(rows, start), start).toMatchObject({ article_nesting: Math.fround(2 / 3), nested_card: 1, card_class: 1, grid_card: 0 });
    }
    expect(block(rows, "Libraries across").section_linked_heading).toBe(1);
    for (const start of MAIN_PARAGRAPHS)
      expect(block(rows, start), start).toMatchObject({ article_nesting: Math.fround(1 / 3), nested_card: 0 });
    // The related card sits before the last long paragraph: not past the main text's end.
    expect(block(rows, "Five branches").after_main_end).toBe(0);
  });

  it("a figure's caption: in <figcaption>, caption class words; the paragraphs around it are neither", () => {
    const rows = structure("figcaption.html");
    expect(block(rows, "The Mill Street library opened")).toMatchObject({ in_figcaption: 1, caption_class: 1, caption_text: 0 });
    for (const start of MAIN_PARAGRAPHS)
      expect(block(rows, start), start).toMatchObject({ in_figcaption: 0, caption_class: 0, caption_text: 0 });
  });

  it('credit lines by their text ("(Image: …)", "Photo: …") and a "Read also:" line, with no caption markup', () => {
    const rows = structure("image-credit.html");
    expect(block(rows, "Councillors raise their hands")).toMatchObject({
      in_figcaption: 0,
      caption_class: 0,
      caption_text: 1,
      read_also: 0,
    });
    expect(block(rows, "Photo: Town Hall")).toMatchObject({ caption_text: 1, after_main_end: 1, main_end_distance: Math.fround(1 / 20) });
    expect(block(rows, "Read also: How the county")).toMatchObject({ read_also: 1, caption_text: 0 });
    for (const start of MAIN_PARAGRAPHS) expect(block(rows, start), start).toMatchObject({ caption_text: 0, read_also: 0 });
    // A content-named element is not a card: nothing here is one.
    expect(rows.every((r) => r.card_class === 0 && r.nested_card === 0)).toBe(true);
  });
});
