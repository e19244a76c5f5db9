/**
 * The texrex block features (Schäfer, "Efficient High-precision Boilerplate Detection Using
 * Multilayer Perceptrons"): 22 scalars, an 11-way container one-hot and a 4-way doctype one-hot,
 * 37 values per block, each scaled into [0, 1].
 *
 * Scaling follows the paper: counts bounded by the block's characters are divided by them; other
 * counts are divided by the constant in SCALE and clamped at 1; position percentiles fold around
 * the middle (the 50th percentile maps to 0, both ends to 1).
 */
import { Doctype, type SegmentedDocument } from "@winnow/segment";
import { BlockScans, COPYRIGHT, ENDS_WITH_PUNCTUATION, type ScanOptions } from "./block-scan.js";

/** Divisors for counts without a natural bound; values above clamp to 1. */
export const SCALE = {
  emptyBefore: 20,
  blockChars: 1000,
  sentenceWords: 50,
  sentences: 20,
} as const;

/** Container groups of feature 1d, in one-hot order. The last one, "other", also sets 1e. */
export const CONTAINER_GROUPS = [
  "p",
  "div",
  "table",
  "list",
  "heading",
  "article",
  "section",
  "blockquote",
  "pre",
  "form",
  "other",
] as const;

const CONTAINER_GROUP_OF: Record<string, number> = {
  p: 0,
  div: 1,
  td: 2,
  th: 2,
  table: 2,
  tr: 2,
  tbody: 2,
  thead: 2,
  tfoot: 2,
  caption: 2,
  li: 3,
  dd: 3,
  dt: 3,
  ul: 3,
  ol: 3,
  dl: 3,
  menu: 3,
  dir: 3,
  h1: 4,
  h2: 4,
  h3: 4,
  h4: 4,
  h5: 4,
  h6: 4,
  hgroup: 4,
  article: 5,
  main: 5,
  section: 6,
  blockquote: 7,
  pre: 8,
  code: 8,
  form: 9,
  fieldset: 9,
  legend: 9,
  label: 9,
  button: 9,
};

function containerGroup(container: string): number {
  return CONTAINER_GROUP_OF[container] ?? 10;
}

export interface FeatureSpec {
  name: string;
  /** The paper's group: markup, links, length, graphemes, language, document (or "extended"). */
  group: string;
  /** How the raw value becomes [0,1] (or [-1,1]). */
  scaling: string;
}

export const TEXREX_SPECS: readonly FeatureSpec[] = [
  { name: "markup_ratio", group: "markup", scaling: "markup chars / (markup + text chars)" },
  { name: "markup_ratio_window1", group: "markup", scaling: "same over blocks i-1..i+1" },
  { name: "markup_ratio_window2", group: "markup", scaling: "same over blocks i-2..i+2" },
  ...CONTAINER_GROUPS.map((g) => ({ name: `container_${g}`, group: "markup", scaling: "one-hot" })),
  { name: "outside_container", group: "markup", scaling: "{0,1}: container group is 'other'" },
  { name: "empty_blocks_before", group: "markup", scaling: `count / ${SCALE.emptyBefore}, clamped` },
  { name: "anchors", group: "markup", scaling: "anchor count / block chars" },
  { name: "emails", group: "links", scaling: "count / block chars" },
  { name: "urls", group: "links", scaling: "count / block chars" },
  { name: "hashtags", group: "links", scaling: "count / block chars" },
  { name: "block_chars", group: "length", scaling: `chars / ${SCALE.blockChars}, clamped` },
  { name: "block_share", group: "length", scaling: "block chars / document text chars" },
  { name: "text_position", group: "length", scaling: "percentile of the block's middle in the text mass, folded" },
  { name: "block_position", group: "length", scaling: "percentile in the block array, folded" },
  { name: "punctuation", group: "graphemes", scaling: "proportion of chars" },
  { name: "letters", group: "graphemes", scaling: "proportion of chars" },
  { name: "digits", group: "graphemes", scaling: "proportion of chars" },
  { name: "uppercase", group: "graphemes", scaling: "proportion of chars" },
  { name: "copyright", group: "graphemes", scaling: "{0,1}" },
  { name: "sentence_length", group: "language", scaling: `mean words per sentence / ${SCALE.sentenceWords}, clamped` },
  { name: "sentences", group: "language", scaling: `count / ${SCALE.sentences}, clamped` },
  { name: "ends_with_punctuation", group: "language", scaling: "{0,1}" },
  { name: "doctype_html4", group: "document", scaling: "one-hot" },
  { name: "doctype_html5", group: "document", scaling: "one-hot" },
  { name: "doctype_xhtml", group: "document", scaling: "one-hot" },
  { name: "doctype_undeclared", group: "document", scaling: "one-hot" },
  { name: "document_markup_ratio", group: "document", scaling: "markup chars / all chars of the document" },
];

export function clamp01(x: number): number {
  return x > 1 ? 1 : x < 0 ? 0 : x;
}

/** Percentile p in [0,1] folded so that the middle is 0 and both ends are 1. */
export function fold(p: number): number {
  return Math.abs(2 * p - 1);
}

/** Per-document values every feature set needs, computed once. */
export interface DocumentContext {
  /** What one pass over each block's text found, block i at index i (block-scan.ts). */
  stats: BlockScans;
  /** Prefix sums of text chars: textBefore[i] = chars of blocks 0..i-1. */
  textBefore: Float64Array;
  totalText: number;
}

/**
 * Scans every block of `doc` (into `scans`, reused from page to page by the feature sets; a fresh
 * one by default). `options.cjkWords`: count Han and kana characters as words (block-scan.ts).
 */
export function documentContext(
  doc: SegmentedDocument,
  options: ScanOptions = { cjkWords: false },
  scans: BlockScans = new BlockScans(),
): DocumentContext {
  const n = doc.blocks.length;
  scans.scanAll(doc.blocks, options);
  const textBefore = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) textBefore[i + 1] = textBefore[i] + doc.blocks[i].textChars;
  return { stats: scans, textBefore, totalText: textBefore[n] };
}

function windowMarkupRatio(doc: SegmentedDocument, i: number, radius: number): number {
  const blocks = doc.blocks;
  let markup = 0,
    text = 0;
  const from = Math.max(0, i - radius),
    to = Math.min(blocks.length - 1, i + radius);
  for (let j = from; j <= to; j++) {
    markup += blocks[j].markupChars;
    text += blocks[j].textChars;
  }
  return markup + text === 0 ? 0 : markup / (markup + text);
}

/** Write the 37 texrex values of block i at out[offset..offset+36]. */
export function writeTexrex(doc: SegmentedDocument, ctx: DocumentContext, i: number, out: Float32Array, offset: number): void {
  const block = doc.blocks[i];
  const s = ctx.stats;
  const n = doc.blocks.length;
  const chars = Math.max(1, block.textChars);
  let k = offset;
  out[k++] = block.markupChars / (block.markupChars + chars);
  out[k++] = windowMarkupRatio(doc, i, 1);
  out[k++] = windowMarkupRatio(doc, i, 2);
  const group = containerGroup(block.container);
  for (let g = 0; g < CONTAINER_GROUPS.length; g++) out[k++] = g === group ? 1 : 0;
  out[k++] = group === CONTAINER_GROUPS.length - 1 ? 1 : 0;
  out[k++] = clamp01(block.emptyBefore / SCALE.emptyBefore);
  out[k++] = clamp01(block.anchorCount / chars);
  out[k++] = clamp01(s.emails[i] / chars);
  out[k++] = clamp01(s.urls[i] / chars);
  out[k++] = clamp01(s.hashtags[i] / chars);
  out[k++] = clamp01(block.textChars / SCALE.blockChars);
  out[k++] = ctx.totalText === 0 ? 0 : block.textChars / ctx.totalText;
  out[k++] = ctx.totalText === 0 ? 0 : fold((ctx.textBefore[i] + block.textChars / 2) / ctx.totalText);
  out[k++] = n <= 1 ? 0 : fold(i / (n - 1));
  out[k++] = s.punctuation[i] / chars;
  out[k++] = s.letters[i] / chars;
  out[k++] = s.digits[i] / chars;
  out[k++] = s.uppercase[i] / chars;
  out[k++] = s.flags[i] & COPYRIGHT ? 1 : 0;
  out[k++] = clamp01(s.words[i] / s.sentences[i] / SCALE.sentenceWords || 0);
  out[k++] = clamp01(s.sentences[i] / SCALE.sentences);
  out[k++] = s.flags[i] & ENDS_WITH_PUNCTUATION ? 1 : 0;
  out[k++] = doc.doctype === Doctype.Html4 ? 1 : 0;
  out[k++] = doc.doctype === Doctype.Html5 ? 1 : 0;
  out[k++] = doc.doctype === Doctype.Xhtml ? 1 : 0;
  out[k++] = doc.doctype === Doctype.Undeclared ? 1 : 0;
  const all = doc.markupChars + doc.textChars;
  out[k++] = all === 0 ? 0 : doc.markupChars / all;
}
