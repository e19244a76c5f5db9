import type { Favor } from "./types.js";

/** How a model file is loaded as a classifier. */
export interface ClassifierOptions {
  /** The name the classifier reports (default: the path). */
  name?: string;
  /** The operating point whose threshold it keeps blocks at (default: balanced). */
  favor?: Favor;
  /**
   * The empty-page fallback's factor (see fallback.ts) for a model file that names none: the
   * shipped MLP's file was exported without one, and docs/clean.md promises it.
   */
  emptyPageFallback?: number;
}
