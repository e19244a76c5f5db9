/**
 * What pass two of a site-templates run sends to a worker with each batch, and the rule the
 * worker applies with it. Kept apart from site-templates-page.ts so that page.ts can use it
 * without importing that module, which imports page.ts.
 */
import type { PageMetadata, ShownCandidates } from "@winnow/metadata";
import type { SegmentedDocument } from "@winnow/segment";
import { dropTemplateBlocks } from "@winnow/templates";
import type { PageOutput } from "./page.js";

/** A page as pass one left it: segmented (with subtree fingerprints), or what became of it. */
export type ParsedPage =
  | { ok: true; doc: SegmentedDocument; charset: string; metadata: PageMetadata | undefined; shown?: ShownCandidates }
  | { ok: false; output: PageOutput };

/** What a worker needs to apply the hosts' templates to one batch. */
export interface SiteTemplateBatch {
  /** The distinct template sets (sorted fingerprints) of the batch's hosts. */
  sets: Float64Array[];
  /** Per page: its host's index in `sets`, or -1 when the host has no template. */
  setOf: number[];
  /** Template blocks the classifier scores at least this high are kept anyway. */
  keepScore: number;
  /** Performance mode: the pages as pass one parsed them, in batch order (no bytes to decode). */
  parsed?: ParsedPage[];
}

/**
 * Drops the template blocks of one scored page (kept is changed in place). The caller checks
 * that the page has subtrees, i.e. was segmented for site templates.
 */
export function applySiteTemplates(
  doc: SegmentedDocument,
  scores: Float32Array,
  kept: Uint8Array,
  batch: SiteTemplateBatch,
  page: number,
): void {
  const set = batch.setOf[page];
  if (set >= 0 && doc.subtrees !== undefined) dropTemplateBlocks(doc.subtrees, batch.sets[set], scores, kept, batch.keepScore);
}
