export { propagateLabels, propagateLabelsDetailed, type PropagationOptions } from "./propagate.js";
export { heuristicSeeds, heuristicSeed, SEED_CONTENT, SEED_BOILERPLATE, UNLABELLED } from "./seeds.js";
export { buildBlockGraph, graphFromEdges, mulberry32, GRAPH_DEFAULTS, type BlockGraph, type GraphOptions } from "./graph.js";
export { solveHarmonic, SOLVE_DEFAULTS, type SolveOptions, type HarmonicResult } from "./harmonic.js";
export {
  LABEL_FORMAT,
  LABEL_FORMAT_VERSION,
  LabelFileError,
  blockFingerprint,
  makeLabelFile,
  parseLabelFile,
  labelMismatch,
  labelFileName,
  writeLabelFile,
  readLabelDir,
  type BlockLabelFile,
  type BlockLabel,
  type LabelSource,
} from "./format.js";
