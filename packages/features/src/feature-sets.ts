/**
 * Named, versioned feature sets. A model file records the name and version it was trained on and
 * is refused by any other: bump a version whenever a value of that set changes meaning.
 */
import type { SegmentedDocument } from "@winnow/segment";
import { BlockScans } from "./block-scan.js";
import { EXTENDED_SPECS, extendedContext, writeExtended } from "./extended.js";
import { CONTEXT_SPECS, pageContext, writeContext } from "./page-context.js";
import { STRUCTURE_SPECS, structureContext, writeStructure } from "./structure.js";
import { TEXREX_SPECS, documentContext, writeTexrex, type FeatureSpec } from "./texrex.js";

export interface FeatureSet {
  readonly name: string;
  readonly version: number;
  readonly specs: readonly FeatureSpec[];
  /** Values per block. */
  readonly size: number;
  /**
   * Feature rows of all blocks of a document, row-major (blocks x size). Writes into `out` at
   * `offset` when given (so several documents can share one batch buffer), else allocates.
   */
  extract(doc: SegmentedDocument, out?: Float32Array, offset?: number): Float32Array;
}

/** Writes one block's row at `at`; `context` is whatever the set computes once per document. */
type RowWriter<C> = (doc: SegmentedDocument, context: C, block: number, out: Float32Array, at: number) => void;

function featureSet<C>(
  name: string,
  version: number,
  specs: readonly FeatureSpec[],
  prepare: (doc: SegmentedDocument) => C,
  writeRow: RowWriter<C>,
): FeatureSet {
  const size = specs.length;
  return {
    name,
    version,
    specs,
    size,
    extract(doc, out, offset = 0) {
      const n = doc.blocks.length;
      const rows = out ?? new Float32Array(n * size);
      const context = prepare(doc);
      for (let i = 0; i < n; i++) writeRow(doc, context, i, rows, offset + i * size);
      return rows;
    },
  };
}

// Each set scans into arrays of its own, reused from page to page: extract() is synchronous and
// its context never outlives the call.
const texrexScans = new BlockScans();
export const TEXREX37: FeatureSet = featureSet(
  "texrex37",
  1,
  TEXREX_SPECS,
  (doc) => documentContext(doc, { cjkWords: false }, texrexScans),
  writeTexrex,
);

const extendedScans = new BlockScans();
export const TEXREX_EXTENDED: FeatureSet = featureSet(
  "texrex37+ext",
  1,
  [...TEXREX_SPECS, ...EXTENDED_SPECS],
  (doc) => {
    const ext = extendedContext(doc);
    return { base: documentContext(doc, { cjkWords: false, listed: ext.listedWords }, extendedScans), ext };
  },
  (doc, { base, ext }, i, out, at) => {
    writeTexrex(doc, base, i, out, at);
    writeExtended(doc, base, ext, i, out, at + TEXREX_SPECS.length);
  },
);

const contextScans = new BlockScans();
/**
 * The extended set plus page-level context: language-independent word cues, the Readability-style
 * densest section, page-type signals and comment cues (page-context.ts).
 */
export const TEXREX_CONTEXT: FeatureSet = featureSet(
  "texrex37+ext+ctx",
  1,
  [...TEXREX_SPECS, ...EXTENDED_SPECS, ...CONTEXT_SPECS],
  (doc) => {
    // Word and sentence counts CJK-aware throughout, so they mean the same in every script.
    const ext = extendedContext(doc, true);
    const base = documentContext(doc, { cjkWords: true, listed: ext.listedWords, functionWords: true }, contextScans);
    return { base, ext, page: pageContext(doc, base) };
  },
  (doc, { base, ext, page }, i, out, at) => {
    writeTexrex(doc, base, i, out, at);
    writeExtended(doc, base, ext, i, out, at + TEXREX_SPECS.length);
    writeContext(doc, page, i, out, at + TEXREX_SPECS.length + EXTENDED_SPECS.length);
  },
);

const structureScans = new BlockScans();
const CONTEXT_SIZE = TEXREX_SPECS.length + EXTENDED_SPECS.length + CONTEXT_SPECS.length;
/**
 * The context set plus page structure (structure.ts): nested and repeated teaser cards, the main
 * text's end, captions and credits. Its first 133 values are the context set's, value for value.
 */
export const TEXREX_STRUCTURE: FeatureSet = featureSet(
  "texrex37+ext+ctx+struct",
  1,
  [...TEXREX_SPECS, ...EXTENDED_SPECS, ...CONTEXT_SPECS, ...STRUCTURE_SPECS],
  (doc) => {
    const ext = extendedContext(doc, true);
    const base = documentContext(doc, { cjkWords: true, listed: ext.listedWords, functionWords: true }, structureScans);
    const page = pageContext(doc, base);
    return { base, ext, page, structure: structureContext(doc, base, page) };
  },
  (doc, { base, ext, page, structure }, i, out, at) => {
    writeTexrex(doc, base, i, out, at);
    writeExtended(doc, base, ext, i, out, at + TEXREX_SPECS.length);
    writeContext(doc, page, i, out, at + TEXREX_SPECS.length + EXTENDED_SPECS.length);
    writeStructure(doc, structure, i, out, at + CONTEXT_SIZE);
  },
);

const FEATURE_SETS: readonly FeatureSet[] = [TEXREX37, TEXREX_EXTENDED, TEXREX_CONTEXT, TEXREX_STRUCTURE];

export function featureSetByName(name: string): FeatureSet {
  const set = FEATURE_SETS.find((s) => s.name === name);
  if (!set) throw new Error(`unknown feature set "${name}"; known: ${FEATURE_SETS.map((s) => s.name).join(", ")}`);
  return set;
}
