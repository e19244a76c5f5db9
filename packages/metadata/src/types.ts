/**
 * What a page says about itself. Every field is absent when the page does not say it (or says
 * something unusable, such as a date before 1995 or in the future): nothing is invented.
 */
export interface PageMetadata {
  /** The language the page declares: `<html lang>`, else `<meta http-equiv="content-language">`, as written. */
  declaredLang?: string;
  /** Author names, "; "-separated when there are several. */
  author?: string;
  /**
   * Publication date, ISO 8601 ("2021-03-04" or "2021-03-04T10:20:00+01:00"), of a page that
   * reads as a publication (it names its author, its markup or URL dates it as an article, or it
   * shows a date beside its headline) and whose URL does not say otherwise (a site's front page,
   * a shop's, a service's, a manual's or a category's section), unless its URL holds a date.
   */
  date?: string;
  /** Last-modified date, where the page gives one, ISO 8601. */
  dateModified?: string;
  sitename?: string;
  description?: string;
  /** `<link rel="canonical">` (else og:url), resolved against the page's URL. */
  canonicalUrl?: string;
  /** Sections and categories (article:section, JSON-LD articleSection, rel="category" links). */
  categories?: string[];
  /** Tags and keywords (article:tag, keywords, JSON-LD keywords, rel="tag" links). */
  tags?: string[];
}

/** What MetadataCollector.finish() reads of the segmenter's blocks: their text, and which is the headline. */
export interface PageBlock {
  readonly text: string;
  /** 1-6 for a heading h1-h6, else 0 (the segmenter's Block.heading). */
  readonly heading?: number;
}
