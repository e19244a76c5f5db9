/**
 * The extended features, appended after the 37 texrex values: where the block sits (semantic
 * ancestors, class/id words), what its neighbours look like, and a few cheap language cues.
 * Each is in [0, 1]. Kept because domain-split cross-validation shows they help (see docs/quality.md).
 */
import { CLASS_WORD_GROUPS, CLASS_WORD_GROUP_COUNT, type SegmentedDocument } from "@winnow/segment";
import { clamp01, type FeatureSpec, type DocumentContext } from "./texrex.js";
import { float32s, float64s, int32s } from "./reused.js";
import { IN_TITLE, STOPWORD, WordList, wordsOf } from "./words.js";

/** Ancestor elements whose presence on the tag path is a feature of its own. */
const ANCESTOR_TAGS = [
  "nav",
  "header",
  "footer",
  "aside",
  "article",
  "main",
  "form",
  "ul|ol",
  "table",
  "figure",
  "a",
  "blockquote",
] as const;

/**
 * ANCESTOR_TAGS' names by length, each with its bit: a tag path's names are compared where they
 * stand (a length, then startsWith), where each was cut out of the path and looked up in a Map.
 */
const ANCESTORS_BY_LENGTH: Array<Array<readonly [string, number]>> = [];
ANCESTOR_TAGS.forEach((names, bit) => {
  for (const name of names.split("|")) (ANCESTORS_BY_LENGTH[name.length] ??= []).push([name, bit]);
});

const LOG_WORDS = Math.log1p(500);
const LOG_BLOCKS = Math.log1p(2000);
const LOG_SECTION_BLOCKS = Math.log1p(200);

/** Function words of English; their density separates running prose from lists of names and links. */
const STOPWORDS = new Set(
  (
    "a about after all also an and any are as at be because been but by can could did do does for from had has have " +
    "he her his how i if in into is it its just me more most my no not of on one only or other our out over she so " +
    "some than that the their them then there these they this to up us was we were what when which who will with " +
    "would you your"
  ).split(" "),
);
/** The stopwords as the base of each page's listed words (its title's words are added per page). */
const LISTED_STOPWORDS = new WordList([[STOPWORDS, STOPWORD]]);

export const EXTENDED_SPECS: readonly FeatureSpec[] = [
  { name: "anchor_char_ratio", group: "extended", scaling: "anchor chars / block chars" },
  { name: "words", group: "extended", scaling: "log(1+words) / log(501), clamped" },
  { name: "is_heading", group: "extended", scaling: "{0,1}" },
  { name: "depth", group: "extended", scaling: "tag path length / 40, clamped" },
  ...ANCESTOR_TAGS.map((t) => ({ name: `inside_${t.replace("|", "_")}`, group: "extended", scaling: "{0,1}" })),
  ...CLASS_WORD_GROUPS.map(([g]) => ({ name: `class_${g}`, group: "extended", scaling: "{0,1}: any ancestor" })),
  ...CLASS_WORD_GROUPS.map(([g]) => ({ name: `class_near_${g}`, group: "extended", scaling: "{0,1}: innermost ancestors" })),
  { name: "prev_anchor_char_ratio", group: "extended", scaling: "of block i-1 (0 at the start)" },
  { name: "next_anchor_char_ratio", group: "extended", scaling: "of block i+1 (0 at the end)" },
  { name: "prev_words", group: "extended", scaling: "words of block i-1, as 'words'" },
  { name: "next_words", group: "extended", scaling: "words of block i+1, as 'words'" },
  { name: "window_text_share", group: "extended", scaling: "text chars of blocks i-3..i+3 / document text" },
  { name: "text_position_raw", group: "extended", scaling: "percentile in the text mass, not folded" },
  { name: "block_position_raw", group: "extended", scaling: "percentile in the block array, not folded" },
  { name: "title_overlap", group: "extended", scaling: "share of the block's words that occur in <title>" },
  { name: "stopwords", group: "extended", scaling: "share of words that are English function words" },
  { name: "longest_ratio", group: "extended", scaling: "block chars / longest block's chars" },
  { name: "document_blocks", group: "extended", scaling: "log(1+blocks) / log(2001), clamped" },
  { name: "same_path_run", group: "extended", scaling: "neighbours within 5 with the same tag path / 10" },
  { name: "window_anchor_ratio", group: "extended", scaling: "anchor chars / text chars over blocks i-2..i+2" },
  { name: "parent_text_share", group: "extended", scaling: "text chars under the parent element / document text" },
  { name: "parent_anchor_ratio", group: "extended", scaling: "anchor chars / text chars under the parent element" },
  { name: "parent_blocks", group: "extended", scaling: "log(1+blocks under the parent) / log(201), clamped" },
  { name: "grandparent_text_share", group: "extended", scaling: "as parent_text_share, one level up" },
  { name: "grandparent_anchor_ratio", group: "extended", scaling: "as parent_anchor_ratio, one level up" },
  { name: "grandparent_blocks", group: "extended", scaling: "as parent_blocks, one level up" },
  { name: "is_title_heading", group: "extended", scaling: "{0,1}: the heading that best matches <title>" },
  { name: "after_title_heading", group: "extended", scaling: "{0,1}: at or after that heading (0 when none)" },
  { name: "title_heading_distance", group: "extended", scaling: "|blocks to that heading| / 50, clamped (1 when none)" },
  { name: "density_peak", group: "extended", scaling: "non-link text over blocks i-4..i+4 / its maximum in the document" },
];

function ancestorMask(tagPath: string): number {
  let mask = 0;
  let start = 0;
  for (let i = 0; i <= tagPath.length; i++) {
    if (i === tagPath.length || tagPath.charCodeAt(i) === 47 /* / */) {
      // Names longer than any listed are past the table's end: reading there would deoptimise.
      const named = i - start < ANCESTORS_BY_LENGTH.length ? ANCESTORS_BY_LENGTH[i - start] : undefined;
      if (named !== undefined) {
        for (const [name, bit] of named) {
          if (tagPath.startsWith(name, start)) {
            mask |= 1 << bit;
            break;
          }
        }
      }
      start = i + 1;
    }
  }
  return mask;
}

function pathDepth(tagPath: string): number {
  let depth = 1;
  for (let i = 0; i < tagPath.length; i++) if (tagPath.charCodeAt(i) === 47) depth++;
  return depth;
}

/**
 * Per-document values of the extended set, computed once per document. Its arrays are reused by
 * the next document's (reused.ts): valid until extendedContext is called again.
 */
export interface ExtendedContext {
  /** Words counted CJK-aware (each Han or kana character a word). */
  cjkWords: boolean;
  titleWords: Set<string>;
  /** The title's words and the stopwords, for the block scan (ScanOptions.listed). */
  listedWords: WordList;
  longest: number;
  /** Text chars, anchor chars and block counts per section id (Block.parentId / grandparentId). */
  sectionText: Float64Array;
  sectionAnchor: Float64Array;
  sectionBlocks: Int32Array;
  /** Index of the heading that best matches the title, -1 when none does. */
  titleHeading: number;
  /** Non-link text over a sliding window of blocks, divided by its maximum. */
  density: Float32Array;
  /** Per block: the path's depth and its semantic-ancestor bits (ANCESTOR_TAGS). */
  pathDepths: Int32Array;
  ancestorMasks: Int32Array;
}

const DENSITY_RADIUS = 4;

const reused = {
  sectionText: float64s(),
  sectionAnchor: float64s(),
  sectionBlocks: int32s(),
  depthOfId: int32s(),
  maskOfId: int32s(),
  pathDepths: int32s(),
  ancestorMasks: int32s(),
  prefix: float64s(),
  density: float32s(),
};

export function extendedContext(doc: SegmentedDocument, cjkWords = false): ExtendedContext {
  const blocks = doc.blocks;
  const n = blocks.length;
  let longest = 1,
    maxId = 0;
  for (const b of blocks) {
    if (b.textChars > longest) longest = b.textChars;
    if (b.parentId > maxId) maxId = b.parentId;
    if (b.grandparentId > maxId) maxId = b.grandparentId;
  }
  const sectionText = reused.sectionText.zeros(maxId + 1);
  const sectionAnchor = reused.sectionAnchor.zeros(maxId + 1);
  const sectionBlocks = reused.sectionBlocks.zeros(maxId + 1);
  for (const b of blocks) {
    sectionText[b.parentId] += b.textChars;
    sectionAnchor[b.parentId] += b.anchorChars;
    sectionBlocks[b.parentId]++;
    sectionText[b.grandparentId] += b.textChars;
    sectionAnchor[b.grandparentId] += b.anchorChars;
    sectionBlocks[b.grandparentId]++;
  }
  // Each distinct path is measured once: blocks name theirs by a small id (Block.pathId).
  let maxPathId = 0;
  for (let i = 0; i < n; i++) if (blocks[i].pathId > maxPathId) maxPathId = blocks[i].pathId;
  const depthOfId = reused.depthOfId.zeros(maxPathId + 1).fill(-1);
  const maskOfId = reused.maskOfId.zeros(maxPathId + 1);
  const pathDepths = reused.pathDepths.zeros(n);
  const ancestorMasks = reused.ancestorMasks.zeros(n);
  for (let i = 0; i < n; i++) {
    const { pathId, tagPath } = blocks[i];
    if (depthOfId[pathId] < 0) {
      depthOfId[pathId] = pathDepth(tagPath);
      maskOfId[pathId] = ancestorMask(tagPath);
    }
    pathDepths[i] = depthOfId[pathId];
    ancestorMasks[i] = maskOfId[pathId];
  }
  const titleWords = new Set(wordsOf(doc.title, cjkWords));
  const listedWords = new WordList([[titleWords, IN_TITLE]], LISTED_STOPWORDS);
  return {
    cjkWords,
    titleWords,
    listedWords,
    longest,
    sectionText,
    sectionAnchor,
    sectionBlocks,
    titleHeading: findTitleHeading(doc, titleWords, cjkWords),
    density: textDensity(doc),
    pathDepths,
    ancestorMasks,
  };
}

/** The page's headline: the heading whose words best cover <title>'s (h1 on ties); -1 when none covers half. */
export function titleHeading(doc: SegmentedDocument): number {
  return findTitleHeading(doc, new Set(wordsOf(doc.title, true)), true);
}

/** The heading whose words best cover the title's (h1 preferred on ties); -1 if none covers half. */
function findTitleHeading(doc: SegmentedDocument, titleWords: Set<string>, cjkWords: boolean): number {
  if (titleWords.size === 0) return -1;
  let best = -1,
    bestScore = 0.5;
  for (const b of doc.blocks) {
    if (b.heading === 0) continue;
    const words = new Set(wordsOf(b.text, cjkWords));
    let shared = 0;
    for (const w of words) if (titleWords.has(w)) shared++;
    const score = shared / Math.max(titleWords.size, words.size) + (b.heading === 1 ? 0.01 : 0);
    if (score > bestScore) {
      bestScore = score;
      best = b.index;
    }
  }
  return best;
}

function textDensity(doc: SegmentedDocument): Float32Array {
  const blocks = doc.blocks;
  const n = blocks.length;
  const prefix = reused.prefix.zeros(n + 1);
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i] + blocks[i].textChars - blocks[i].anchorChars;
  const density = reused.density.zeros(n);
  let max = 0;
  for (let i = 0; i < n; i++) {
    const v = prefix[Math.min(n, i + DENSITY_RADIUS + 1)] - prefix[Math.max(0, i - DENSITY_RADIUS)];
    density[i] = v;
    if (v > max) max = v;
  }
  if (max > 0) for (let i = 0; i < n; i++) density[i] /= max;
  return density;
}

function wordsScaled(words: number): number {
  return clamp01(Math.log1p(words) / LOG_WORDS);
}

/** Text share, link density and size of one section; returns the next offset. */
function writeSection(ext: ExtendedContext, id: number, total: number, out: Float32Array, k: number): number {
  const text = ext.sectionText[id];
  out[k++] = total === 0 ? 0 : text / total;
  out[k++] = text === 0 ? 0 : ext.sectionAnchor[id] / text;
  out[k++] = clamp01(Math.log1p(ext.sectionBlocks[id]) / LOG_SECTION_BLOCKS);
  return k;
}

/** Write the extended values of block i at out[offset..]. */
export function writeExtended(
  doc: SegmentedDocument,
  ctx: DocumentContext,
  ext: ExtendedContext,
  i: number,
  out: Float32Array,
  offset: number,
): void {
  const blocks = doc.blocks;
  const n = blocks.length;
  const block = blocks[i];
  const s = ctx.stats;
  const chars = Math.max(1, block.textChars);
  let k = offset;
  out[k++] = block.anchorChars / chars;
  out[k++] = wordsScaled(s.words[i]);
  out[k++] = block.heading > 0 ? 1 : 0;
  out[k++] = clamp01(ext.pathDepths[i] / 40);

  const ancestors = ext.ancestorMasks[i];
  for (let b = 0; b < ANCESTOR_TAGS.length; b++) out[k++] = (ancestors >> b) & 1;
  const classes = block.classMask;
  for (let g = 0; g < CLASS_WORD_GROUP_COUNT; g++) out[k++] = (classes >> g) & 1;
  const inner = block.nearClassMask;
  for (let g = 0; g < CLASS_WORD_GROUP_COUNT; g++) out[k++] = (inner >> g) & 1;

  const prev = i > 0 ? blocks[i - 1] : undefined;
  const next = i + 1 < n ? blocks[i + 1] : undefined;
  out[k++] = prev ? prev.anchorChars / Math.max(1, prev.textChars) : 0;
  out[k++] = next ? next.anchorChars / Math.max(1, next.textChars) : 0;
  out[k++] = prev ? wordsScaled(s.words[i - 1]) : 0;
  out[k++] = next ? wordsScaled(s.words[i + 1]) : 0;

  const total = ctx.totalText;
  const lo = Math.max(0, i - 3),
    hi = Math.min(n, i + 4);
  out[k++] = total === 0 ? 0 : (ctx.textBefore[hi] - ctx.textBefore[lo]) / total;
  out[k++] = total === 0 ? 0 : (ctx.textBefore[i] + block.textChars / 2) / total;
  out[k++] = n <= 1 ? 0 : i / (n - 1);

  // Counted by the block scan with ext.listedWords (block-scan.ts).
  const words = s.unicodeWords[i];
  out[k++] = words === 0 ? 0 : s.inTitle[i] / words;
  out[k++] = words === 0 ? 0 : s.stopwords[i] / words;
  out[k++] = block.textChars / ext.longest;
  out[k++] = clamp01(Math.log1p(n) / LOG_BLOCKS);

  let samePath = 0;
  const pathId = block.pathId;
  for (let j = Math.max(0, i - 5); j < Math.min(n, i + 6); j++) if (j !== i && blocks[j].pathId === pathId) samePath++;
  out[k++] = samePath / 10;
  let anchorChars = 0,
    textChars = 0;
  for (let j = Math.max(0, i - 2); j < Math.min(n, i + 3); j++) {
    anchorChars += blocks[j].anchorChars;
    textChars += blocks[j].textChars;
  }
  out[k++] = textChars === 0 ? 0 : anchorChars / textChars;

  k = writeSection(ext, block.parentId, total, out, k);
  k = writeSection(ext, block.grandparentId, total, out, k);
  const anchor = ext.titleHeading;
  out[k++] = anchor === i ? 1 : 0;
  out[k++] = anchor >= 0 && i >= anchor ? 1 : 0;
  out[k++] = anchor < 0 ? 1 : clamp01(Math.abs(i - anchor) / 50);
  out[k++] = ext.density[i];
}
