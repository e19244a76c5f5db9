// Public API of @winnow/metadata: a page's metadata (declared language, author, dates, site name,
// description, canonical URL, categories, tags), collected as a MarkupObserver of the segmenter's
// one pass; the date normalisation it uses.

export { MetadataCollector } from "./collector.js";
export { chooseByMainText } from "./main-text.js";
export { dateInUrl, EARLIEST_DATE_MS, normaliseDate } from "./dates.js";
export { NOT_SHOWN, type PageBlock, type PageMetadata, type ShownCandidate, type ShownCandidates } from "./types.js";
