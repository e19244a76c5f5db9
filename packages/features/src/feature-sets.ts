/**
 * Named, versioned feature sets. A model file records the name and version it was trained on and
 * is refused by any other: bump a version whenever a value of that set changes meaning.
 */
import type { SegmentedDocument } from "@winnow/segment";
import { EXTENDED_SPECS, extendedContext, writeExtended } from "./extended.js";
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

export const TEXREX37: FeatureSet = {
  name: "texrex37",
  version: 1,
  specs: TEXREX_SPECS,
  size: TEXREX_SPECS.length,
  extract(doc, out, offset = 0) {
    const n = doc.blocks.length;
    const rows = out ?? new Float32Array(n * this.size);
    const ctx = documentContext(doc);
    for (let i = 0; i < n; i++) writeTexrex(doc, ctx, i, rows, offset + i * this.size);
    return rows;
  },
};

const EXTENDED_ALL = [...TEXREX_SPECS, ...EXTENDED_SPECS];

export const TEXREX_EXTENDED: FeatureSet = {
  name: "texrex37+ext",
  version: 1,
  specs: EXTENDED_ALL,
  size: EXTENDED_ALL.length,
  extract(doc, out, offset = 0) {
    const n = doc.blocks.length;
    const rows = out ?? new Float32Array(n * this.size);
    const ctx = documentContext(doc);
    const ext = extendedContext(doc);
    const base = TEXREX_SPECS.length;
    for (let i = 0; i < n; i++) {
      const at = offset + i * this.size;
      writeTexrex(doc, ctx, i, rows, at);
      writeExtended(doc, ctx, ext, i, rows, at + base);
    }
    return rows;
  },
};

const FEATURE_SETS: readonly FeatureSet[] = [TEXREX37, TEXREX_EXTENDED];

export function featureSetByName(name: string): FeatureSet {
  const set = FEATURE_SETS.find((s) => s.name === name);
  if (!set) throw new Error(`unknown feature set "${name}"; known: ${FEATURE_SETS.map((s) => s.name).join(", ")}`);
  return set;
}
