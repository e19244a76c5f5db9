/**
 * The cleaning of one batch of pages, top to bottom: decode the bytes, cut the HTML into blocks,
 * score the blocks, keep those at or above the threshold. Everything after the archive reader and
 * before the writer happens here, in a worker thread or inline.
 */
import { decodeHtmlPieces } from "@winnow/archive/pages";
import { errorMessage } from "@winnow/errors";
import type { DedupKeys } from "@winnow/dedup";
import type { DocumentStats, PiiCounts } from "@winnow/filters";
import { scoreBatch, type BlockClassifier, inCommentsField, type ScoreBatch } from "@winnow/models/classifiers";
import { chooseByMainText, MetadataCollector, type PageMetadata, type ShownCandidates } from "@winnow/metadata";
import { type BlockLayout, MAX_NESTING, segmentHtml, type SegmentedDocument } from "@winnow/segment";
import type { DocumentBlock } from "@winnow/writers";
import { applySiteTemplates, type SiteTemplateBatch } from "./site-templates-batch.js";

/** What a worker gets for one record: the payload and what the archive said about it. */
export interface PageInput {
  body: Uint8Array;
  /** charset from the HTTP header, "" when none. */
  headerCharset: string;
  /** The record's URL, when it has one: per-host models are chosen by its host. */
  url?: string;
  /** When the page was captured, ISO 8601 ("" or absent when unknown): no date of the page is later. */
  capturedAt?: string;
}

/** What comes back: the document's kept blocks, or the reason there is none. */
export type PageOutput =
  | {
      ok: true;
      title: string;
      charset: string;
      blocks: DocumentBlock[];
      blocksTotal: number;
      /** With keepComments and a model with a comment head: the blocks it calls user comments. */
      comments?: DocumentBlock[];
      /** What the page says about itself, read in the segmenter's pass. */
      metadata?: PageMetadata;
      /** Set by the corpus steps (steps.ts): language, rules failed (with --keep-filtered), statistics. */
      lang?: string;
      langScore?: number;
      filterFailed?: Array<{ rule: string; value: number | string }>;
      stats?: DocumentStats;
      /** With --pii: the e-mail and IP addresses masked in the blocks. */
      pii?: PiiCounts;
      /** With --dedup: the hashes the writer's one-pass dedup compares (dedup.ts). */
      dedupKeys?: DedupKeys;
    }
  | { ok: false; reason: "decode-error" | "no-text" | "too-deep" | "failed"; detail: string }
  /** Dropped by a corpus step: the first rule failed and its value. */
  | { ok: false; reason: "language" | "filter"; detail: string; rule: string; value: number | string };

/** How a batch is cleaned beyond its model. */
export interface PageOptions {
  /** Keep the blocks the comment head finds as comments (`--comments`). */
  keepComments?: boolean;
  /** Record links and emphasis inside blocks (Markdown's `--links`). */
  links?: boolean;
  /** Collect the page's metadata in the segmenter's pass (default true; `--no-metadata` saves its CPU). */
  metadata?: boolean;
}

/** What the output needs of a page segmented and handed to the scorer, once its parse is dropped. */
interface PageLeft {
  slot: number;
  title: string;
  charset: string;
  texts: string[];
  headings: Uint8Array;
  /** Per block, the structure it sits in; null when no block sits in any. */
  layouts: Array<BlockLayout | undefined> | null;
  metadata: PageMetadata | undefined;
  /** The dates and authors the page shows, and where: the date and author are chosen again once the main text is known. */
  shown: ShownCandidates | undefined;
  /** Site templates only: the parse, whose subtrees the template rule reads after scoring. */
  doc?: SegmentedDocument;
}

/**
 * Each page is decoded, segmented and handed to the classifier's batch (for the MLP: its feature
 * rows are computed) before the next is read, and only its block texts are kept: a batch's parsed
 * pages are never all alive at once. All the batch's blocks are still scored in one call.
 *
 * With `siteTemplates` (pass two of --site-templates), blocks in the hosts' template subtrees are
 * dropped too; that rule reads the parse after scoring, so those pages are kept whole.
 */
export async function cleanPages(
  inputs: readonly PageInput[],
  classifier: BlockClassifier,
  siteTemplates?: SiteTemplateBatch,
  options: PageOptions = {},
): Promise<PageOutput[]> {
  const keepComments = options.keepComments === true;
  const outputs = new Array<PageOutput>(inputs.length);
  const left: PageLeft[] = [];
  const batch = scoreBatch(classifier);
  for (let i = 0; i < inputs.length; i++) {
    const page = await takePage(inputs[i], i, batch, siteTemplates !== undefined, options);
    if ("slot" in page) left.push(page);
    else outputs[i] = page;
  }
  const scores = await batch.score();
  const threshold = classifier.threshold;
  const fieldThreshold = classifier.commentFieldThreshold ?? classifier.commentThreshold;
  const commentScores = keepComments && fieldThreshold !== undefined ? batch.commentScores : undefined;
  for (let k = 0; k < left.length; k++) {
    const page = left[k];
    const s = scores[k];
    const n = page.texts.length;
    if (s.length !== n) throw new Error(`the classifier gave ${s.length} scores for ${n} blocks`);
    const blocks: DocumentBlock[] = [];
    const keptIndexes: number[] = [];
    if (page.doc !== undefined && siteTemplates !== undefined) {
      const kept = new Uint8Array(n);
      for (let b = 0; b < n; b++) kept[b] = s[b] >= threshold ? 1 : 0;
      applySiteTemplates(page.doc, s, kept, siteTemplates, page.slot);
      for (let b = 0; b < n; b++) if (kept[b] === 1) keptIndexes.push(b);
    } else {
      for (let b = 0; b < n; b++) if (s[b] >= threshold) keptIndexes.push(b);
    }
    for (const b of keptIndexes) blocks.push(outputBlock(page, b));
    const metadata = chosenMetadata(page.metadata, page.shown, keptIndexes, () => page.texts);
    const output: PageOutput = { ok: true, title: page.title, charset: page.charset, blocks, blocksTotal: n, metadata };
    if (keepComments) output.comments = commentBlocks(page, s, threshold, commentScores?.[k], fieldThreshold);
    outputs[page.slot] = output;
  }
  return outputs;
}

/**
 * The page's metadata with its date and author chosen again by where the page shows them against
 * the blocks kept as main text (chooseByMainText): the one place both cleaning paths (cleanPages,
 * and site templates' cleanParsedPages) decide them. `texts` gives every block's text, asked for
 * only when there is metadata to decide.
 */
export function chosenMetadata(
  metadata: PageMetadata | undefined,
  shown: ShownCandidates | undefined,
  keptIndexes: readonly number[],
  texts: () => readonly string[],
): PageMetadata | undefined {
  return metadata === undefined || shown === undefined ? metadata : chooseByMainText(metadata, shown, keptIndexes, texts());
}

/**
 * The blocks not kept as main text that the comment head scores as comments at the field's
 * threshold, or the markup settled as a thread ([] without a head).
 */
function commentBlocks(
  page: PageLeft,
  scores: Float32Array,
  threshold: number,
  comments: Float32Array | undefined,
  fieldThreshold: number | undefined,
): DocumentBlock[] {
  const out: DocumentBlock[] = [];
  if (comments === undefined || fieldThreshold === undefined) return out;
  for (let b = 0; b < page.texts.length; b++) {
    if (inCommentsField(scores[b], comments[b], threshold, fieldThreshold)) out.push(outputBlock(page, b));
  }
  return out;
}

/**
 * Every output block has one shape, `layout` present (undefined on a plain block): with two
 * shapes the writers' reads of `block.layout` deoptimised on the first page that mixed them
 * (issue 33). Writers see no difference: JSON leaves undefined fields out.
 */
function outputBlock(page: PageLeft, b: number): DocumentBlock {
  return { text: page.texts[b], heading: page.headings[b], layout: page.layouts?.[b] };
}

// One per thread: the segmenter feeds it page by page, and finish() readies it for the next.
const metadataCollector = new MetadataCollector();

/**
 * Segments a page, collecting its metadata in the same pass unless `options.metadata` is false;
 * with subtree fingerprints for site templates, and links and emphasis for `--links`.
 */
export function segmentWithMetadata(
  pieces: readonly string[],
  url: string,
  options: Pick<PageOptions, "links" | "metadata"> & { subtrees?: boolean; capturedAt?: string } = {},
): { doc: SegmentedDocument; metadata: PageMetadata | undefined; shown?: ShownCandidates } {
  const subtrees = options.subtrees === true;
  const inline = options.links === true;
  if (options.metadata === false) return { doc: segmentHtml(pieces, { subtrees, inline }), metadata: undefined };
  try {
    const doc = segmentHtml(pieces, { subtrees, observer: metadataCollector, inline });
    const captured = options.capturedAt === undefined || options.capturedAt.length === 0 ? Number.NaN : Date.parse(options.capturedAt);
    return { doc, ...metadataCollector.finishWithShown(url, captured, doc.blocks, doc.title) };
  } catch (error) {
    metadataCollector.reset();
    throw error;
  }
}

/**
 * Decodes and segments one page and hands it to the batch, returning what the output will need
 * (or why there is no output). A function of its own so that its parse is unreachable once it
 * returns: a loop's suspended frame would hold its last page until the batch is scored.
 */
async function takePage(
  input: PageInput,
  slot: number,
  batch: ScoreBatch,
  keepDoc: boolean,
  options: PageOptions,
): Promise<PageLeft | PageOutput> {
  let charset: string;
  let doc: SegmentedDocument;
  let metadata: PageMetadata | undefined;
  let shown: ShownCandidates | undefined;
  try {
    const decoded = decodeHtmlPieces(input.body, input.headerCharset);
    charset = decoded.charset;
    ({ doc, metadata, shown } = segmentWithMetadata(decoded.pieces, input.url ?? "", {
      subtrees: keepDoc,
      links: options.links,
      metadata: options.metadata,
      capturedAt: input.capturedAt,
    }));
  } catch (error) {
    return { ok: false, reason: "decode-error", detail: errorMessage(error) };
  }
  const unusable = unusableParse(doc);
  if (unusable !== null) return unusable;
  // A classifier failure fails the whole batch (cleanPagesSafely), as one score() call would.
  await batch.add(doc);
  const blocks = doc.blocks;
  const texts = new Array<string>(blocks.length);
  const headings = new Uint8Array(blocks.length);
  let layouts: Array<BlockLayout | undefined> | null = null;
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b];
    texts[b] = block.text; // a copy of its own already (the segmenter's compactCopy)
    headings[b] = block.heading;
    const layout = block.layout;
    if (layout !== undefined) {
      layouts ??= new Array<BlockLayout | undefined>(blocks.length);
      layouts[b] = layout.pre === undefined && layout.inline === undefined ? layout : ownedLayout(layout);
    }
  }
  return { slot, title: own(doc.title), charset, texts, headings, layouts, metadata, shown, doc: keepDoc ? doc : undefined };
}

/**
 * Why a parse gives no document, or null when it gives one. A page nested deeper than
 * MAX_NESTING was cut off there by the segmenter's guard: what lies below is unread, so the page
 * is rejected with its own reason (counted, and in --rejects) rather than written in part as if
 * whole.
 */
export function unusableParse(doc: SegmentedDocument): PageOutput | null {
  if (doc.truncated) {
    const where = doc.blocks.length === 0 ? "before any text" : `after ${doc.blocks.length} block${doc.blocks.length === 1 ? "" : "s"}`;
    return {
      ok: false,
      reason: "too-deep",
      detail: `nesting deeper than ${MAX_NESTING} levels ${where}; the parse was cut off there, so the page is not written in part`,
    };
  }
  if (doc.blocks.length === 0) return { ok: false, reason: "no-text", detail: "the page has no visible text" };
  return null;
}

/**
 * A copy of `text` that holds no other memory. The title and pre text are often V8 slices of the
 * page's decoded HTML, and a slice keeps its whole parent alive (block texts did too before the
 * segmenter copied them: those of 200 dev pages held 51 MB that way, their copies 10 MB).
 * Concatenating makes a new string and slicing it flattens it into a fresh one; strings under 13
 * characters are never slices.
 */
function own(text: string): string {
  return text.length < 13 ? text : `${text} `.slice(0, -1);
}

/** A layout whose strings (pre text, link targets) no longer hold the page's HTML alive. */
function ownedLayout(layout: BlockLayout): BlockLayout {
  const copy = { ...layout };
  if (copy.pre !== undefined) copy.pre = own(copy.pre);
  if (copy.inline !== undefined) copy.inline = copy.inline.map((s) => (s.href === undefined ? s : { ...s, href: own(s.href) }));
  return copy;
}
