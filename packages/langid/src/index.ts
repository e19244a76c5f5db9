// Public API of @winnow/langid: fastText lid.176 language identification, offline, in WebAssembly.

export { DEFAULT_MAX_CHARS, type LanguageGuess, LanguageIdentifier, type LanguageIdentifierOptions, modelPath } from "./langid.js";
export { isLanguageLabel, LID176_LABELS, nearestLanguageLabels } from "./labels.js";
