/**
 * The labels a run's documents can be given, for the main thread: the CLI checks --langs against
 * them before a run starts. From @winnow/langid's labels alone, not its index, which loads the
 * fastText runtime that only the threads cleaning pages use (steps.ts).
 */
export { isLanguageLabel, nearestLanguageLabels } from "@winnow/langid/labels";

/** The language a document without letters gets (ISO 639-2 "undetermined"). */
export const UNDETERMINED = "und";
