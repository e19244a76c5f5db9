/**
 * Heuristic seed labels: only blocks the markup makes near-certain get a label, the rest are left
 * for propagation. Deliberately conservative: a wrong seed is pinned and spreads to its neighbours.
 */
import type { Block, SegmentedDocument } from "@winnow/segment";

export const SEED_CONTENT = 1;
export const SEED_BOILERPLATE = 0;
export const UNLABELLED = -1;

const CONTENT_TAGS = new Set(["article", "main"]);
const BOILERPLATE_TAGS = new Set(["nav", "footer", "aside"]);

function wordCount(text: string): number {
  let count = 0, inWord = false;
  for (let c = 0; c < text.length; c++) {
    const space = text.charCodeAt(c) <= 32;
    if (!space && !inWord) count++;
    inWord = !space;
  }
  return count;
}

/** 1 content, 0 boilerplate, -1 no opinion, for one block. */
export function heuristicSeed(block: Block): number {
  const words = wordCount(block.text);
  const linkDensity = block.textChars > 0 ? block.anchorChars / block.textChars : 0;
  const tags = block.tagPath.split("/");
  // Boilerplate first: a long paragraph inside <nav> is still navigation.
  if (words < 3 || linkDensity > 0.5 || tags.some((t) => BOILERPLATE_TAGS.has(t))) return SEED_BOILERPLATE;
  if (words >= 25 && linkDensity < 0.2 && tags.some((t) => CONTENT_TAGS.has(t))) return SEED_CONTENT;
  return UNLABELLED;
}

export function heuristicSeeds(doc: SegmentedDocument): Int8Array {
  const seeds = new Int8Array(doc.blocks.length);
  for (let b = 0; b < doc.blocks.length; b++) seeds[b] = heuristicSeed(doc.blocks[b]);
  return seeds;
}
