import type { Favor } from "./types.js";

/** How a model file is loaded as a classifier. */
export interface ClassifierOptions {
  /** The name the classifier reports (default: the path). */
  name?: string;
  /** The operating point whose threshold it keeps blocks at (default: balanced). */
  favor?: Favor;
}
