/**
 * `winnow label`: label every block of every page from a few seed labels, by Gaussian-random-field
 * propagation over the page's block graph (packages/labels), and say how good the result is when
 * gold text is there to check it against.
 *
 * Seeds come from one source: the markup heuristic, the WCXB with/without snippets, a random share
 * of the alignment labels (to measure what a given amount of hand labelling buys), or hand labels
 * from label files.
 */
import { normaliseSnippetText, type LabelledPage } from "@winnow/evaluation";
import {
  contentLabel,
  heuristicSeeds,
  makeLabelFile,
  propagateLabels,
  writeLabelFile,
  type BlockLabel,
  type BlockLabelFile,
  type PropagationOptions,
} from "@winnow/labels";
import { mulberry32 } from "@winnow/random";
import type { Dataset } from "./dataset.js";
import { PROPAGATION_THRESHOLD, revealSeeds } from "./propagation-eval.js";
import { type PageLabels, refuseUnfitFile } from "./training-labels.js";
import { UsageError } from "@winnow/errors";

export type SeedSource =
  | { kind: "heuristic" }
  | { kind: "snippets" }
  /** A share (0..1] of each page's alignment labels, drawn at random with this seed; needs gold text. */
  | { kind: "reveal"; fraction: number; seed: number }
  /** Hand labels by page id; null entries are unlabelled. */
  | { kind: "hand"; files: ReadonlyMap<string, BlockLabelFile> };

/** A --seeds value that names no seed source (exit 2). */
export class SeedSourceError extends UsageError {
  override readonly name: string = "SeedSourceError";
}

/** "heuristic", "snippets", "reveal:0.2"; hand labels need a directory read, so callers build that one. */
export function parseSeedSource(text: string, seed = 1): Exclude<SeedSource, { kind: "hand" }> | { kind: "hand"; dir: string } {
  if (text === "heuristic" || text === "snippets") return { kind: text };
  const reveal = /^reveal:(\d*\.?\d+)$/.exec(text);
  if (reveal) {
    const fraction = Number(reveal[1]);
    if (!(fraction > 0 && fraction <= 1)) throw new SeedSourceError(`--seeds reveal:F needs 0 < F <= 1, got ${reveal[1]}`);
    return { kind: "reveal", fraction, seed };
  }
  if (text.startsWith("hand:") && text.length > 5) return { kind: "hand", dir: text.slice(5) };
  throw new SeedSourceError(`--seeds must be heuristic, snippets, reveal:F or hand:DIR, got "${text}"`);
}

export interface LabelSummary {
  pages: number;
  /** Pages that got labels; a page with no seed at all gets none (propagation would only guess). */
  pagesLabelled: number;
  blocks: number;
  seeds: number;
  /** Seeds / blocks of the labelled pages. */
  seededFraction: number;
  /** Against the alignment labels, over labelled pages with gold text; undefined without any. */
  check?: {
    pages: number;
    /** Every block, seeds included. */
    accuracy: number;
    /** Blocks that were not seeds: what propagation itself decided. */
    propagatedAccuracy: number;
    propagatedBlocks: number;
    /** Seeds that agree with the alignment (1 for revealed labels). */
    seedAccuracy: number;
  };
}

export interface PropagatedLabels {
  /** Per page: 1/0 per block, or undefined when the page had no seed. */
  labels: PageLabels[];
  summary: LabelSummary;
}

/** Blocks containing a `with` snippet are content, a `without` snippet boilerplate; both: no seed. */
export function snippetSeeds(page: LabelledPage): Int8Array {
  const withs = page.withSnippets.map(normaliseSnippetText).filter((s) => s.length > 0);
  const withouts = page.withoutSnippets.map(normaliseSnippetText).filter((s) => s.length > 0);
  const seeds = new Int8Array(page.doc.blocks.length).fill(-1);
  page.doc.blocks.forEach((block, b) => {
    const text = normaliseSnippetText(block.text);
    const content = withs.some((s) => text.includes(s));
    const boilerplate = withouts.some((s) => text.includes(s));
    if (content !== boilerplate) seeds[b] = content ? 1 : 0;
  });
  return seeds;
}

function handSeeds(page: LabelledPage, file: BlockLabelFile | undefined): Int8Array {
  const seeds = new Int8Array(page.doc.blocks.length).fill(-1);
  if (file === undefined) return seeds;
  refuseUnfitFile(page, file);
  file.labels.forEach((label, b) => {
    if (label !== null) seeds[b] = contentLabel(label) as 0 | 1;
  });
  return seeds;
}

/** Seeds and propagates every page of `data`; its rows are the graph's feature space. */
export function propagateDatasetLabels(data: Dataset, source: SeedSource, options: PropagationOptions = {}): PropagatedLabels {
  const dims = data.featureSet.size;
  const random = source.kind === "reveal" ? mulberry32(source.seed) : undefined;
  if (source.kind === "reveal" && data.pages.every((page) => page.gold.length === 0)) {
    throw new SeedSourceError("--seeds reveal:F reveals alignment labels, which need gold text, and no page has any");
  }
  const labels: PageLabels[] = [];
  let pagesLabelled = 0,
    blocks = 0,
    seeds = 0;
  let checkPages = 0,
    checkBlocks = 0,
    right = 0,
    propagated = 0,
    propagatedRight = 0,
    seedsChecked = 0,
    seedsRight = 0;
  for (let p = 0; p < data.pages.length; p++) {
    const page = data.pages[p];
    const from = data.firstRow[p],
      to = data.firstRow[p + 1];
    const aligned = data.labels.subarray(from, to);
    const pageSeeds =
      source.kind === "heuristic"
        ? heuristicSeeds(page.doc)
        : source.kind === "snippets"
          ? snippetSeeds(page)
          : // A page without gold text has no alignment labels to reveal: it gets no seed.
            source.kind === "reveal"
            ? page.gold.length > 0
              ? revealSeeds(aligned, source.fraction, random!)
              : new Int8Array(to - from).fill(-1)
            : handSeeds(page, source.files.get(page.id));
    const seeded = pageSeeds.reduce((n, s) => n + (s >= 0 ? 1 : 0), 0);
    if (seeded === 0) {
      labels.push(undefined);
      continue;
    }
    const scores = propagateLabels(page.doc, data.rows.subarray(from * dims, to * dims), dims, pageSeeds, options);
    const pageLabels: BlockLabel[] = Array.from(scores, (s) => (s > PROPAGATION_THRESHOLD ? 1 : 0));
    labels.push(pageLabels);
    pagesLabelled++;
    blocks += to - from;
    seeds += seeded;
    if (page.gold.length === 0) continue;
    checkPages++;
    for (let b = 0; b < pageLabels.length; b++) {
      const agrees = pageLabels[b] === aligned[b];
      checkBlocks++;
      if (agrees) right++;
      if (pageSeeds[b] >= 0) {
        seedsChecked++;
        if (agrees) seedsRight++;
      } else {
        propagated++;
        if (agrees) propagatedRight++;
      }
    }
  }
  const summary: LabelSummary = {
    pages: data.pages.length,
    pagesLabelled,
    blocks,
    seeds,
    seededFraction: blocks > 0 ? seeds / blocks : 0,
  };
  if (checkPages > 0) {
    summary.check = {
      pages: checkPages,
      accuracy: right / Math.max(1, checkBlocks),
      propagatedAccuracy: propagatedRight / Math.max(1, propagated),
      propagatedBlocks: propagated,
      seedAccuracy: seedsRight / Math.max(1, seedsChecked),
    };
  }
  return { labels, summary };
}

/** Writes one "propagated" label file per labelled page into dir (`winnow label -o`); returns how many were written. */
export async function writePropagatedLabels(dir: string, pages: readonly LabelledPage[], labels: readonly PageLabels[]): Promise<number> {
  let written = 0;
  for (let p = 0; p < pages.length; p++) {
    const pageLabels = labels[p];
    if (pageLabels === undefined) continue;
    const page = pages[p];
    await writeLabelFile(
      dir,
      makeLabelFile({ id: page.id, url: page.url, blockTexts: page.doc.blocks.map((b) => b.text) }, pageLabels, "propagated"),
      { what: "label file", flag: "-o" },
    );
    written++;
  }
  return written;
}
