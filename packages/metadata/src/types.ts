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

/** A date or author candidate's block where the page does not show it (its JSON-LD, `<meta>`, URL), or none was given. */
export const NOT_SHOWN = -1;

/** A date or an author that the page shows in its text, and the block it sits in. */
export interface ShownCandidate {
  /** A date as written (read by normaliseDate), or an author's names ("; " between them). */
  readonly value: string;
  readonly block: number;
  /** How the page marks it (the collector's ranks: 3 marked as the date or author, 4-5 a class or a `<time>`, 6-7 a labelled line). */
  readonly rank: number;
}

/** What MetadataCollector.finishWithShown() gives chooseByMainText besides the page's metadata. */
export interface ShownCandidates {
  /** The dates the page shows, in block order ("" where only the block is known). */
  dates: ShownCandidate[];
  /** The names the page shows as its author's, publishers left out, in block order. */
  authors: ShownCandidate[];
  /** The block of the date finish() gave, NOT_SHOWN when the markup or the URL gave it or none was given. */
  dateBlock: number;
  /** The same for the author. */
  authorBlock: number;
  /** The site's names (og:site_name, JSON-LD publisher) and the page's host: a byline that names only them names no person. */
  publishers: string[];
  host: string;
  /** The bound and the language the page's dates were read with. */
  bound: number;
  lang: string;
  /**
   * What each date string the collector read on the page read as (readDateOnce's), with that
   * bound and language: chooseByMainText reads a string the collector read from here, and adds
   * what it reads, so that no string is parsed twice per page.
   */
  readings: Map<string, string | null>;
  /**
   * The page's URL says it publishes nothing dated of its own (a site's front page, a shop's or a
   * manual's section, and no date in the URL): finish() dates no such page, nor does its main text.
   */
  noPublicationUrl: boolean;
}
