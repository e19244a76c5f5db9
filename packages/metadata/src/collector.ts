/**
 * Collects a page's metadata while the segmenter parses it (a MarkupObserver: no second parse).
 *
 * Each field takes the best-ranked candidate the page offers, whatever its place in the page:
 * JSON-LD first, then the `<meta>` names pages use for the purpose (OpenGraph, article:*, Dublin
 * Core, schema.org itemprop, Parse.ly and Sailthru), then what readers see (an element marked as
 * the author, `<time>`, an element whose class says date), then the URL (/2021/03/04/). Within a
 * rank, the first in the page wins.
 *
 * Dates and authors are kept as candidate strings during the parse and read in finish(), where
 * the capture's date (a date's upper bound) and the site's name (never an author) are known: the
 * best-ranked candidate that reads as a date, or holds names, wins. A page offers a handful, so
 * chrono-node reads a few short strings per page at most, never the page's text.
 */
import type { MarkupObserver } from "@winnow/segment";
import { type DateReadings, dateInUrl, NO_BOUND, readDateOnce } from "./dates.js";
import { authorNames, handleIn, isPublisher, isSiteName, isSitesOwnName } from "./names.js";
import { type JsonLdFacts, readJsonLd } from "./json-ld.js";
import { NOT_SHOWN, type PageBlock, type PageMetadata, type ShownCandidates } from "./types.js";

/** Candidate ranks: lower wins. */
const JSON_LD = 0;
const META_MAIN = 1;
const META_OTHER = 2;
const VISIBLE_MARKED = 3; // itemprop="author", <time pubdate>, rel="author"
const VISIBLE_GUESS = 4; // class="byline", the page's first <time>
const VISIBLE_TEXT = 5; // the text of an element whose class says date, or of a byline
const LABELLED_TEXT = 6; // a short block of the page's text that says what it is ("Updated on …", "作者：…")
const EDITED_TEXT = 7; // a line that credits the page's editor ("编辑：金金"): its author only where no writer is named
const CMS_SAVED = 8; // a JSON-LD WebPage's datePublished: the day a CMS first saved the page
// then a date in the URL path
const NONE = 99;

const PUBLISHED: Record<string, number> = {
  "article:published_time": META_MAIN,
  "og:article:published_time": META_MAIN,
  "og:published_time": META_MAIN,
  datepublished: META_MAIN,
  "article:published": META_OTHER,
  "parsely-pub-date": META_OTHER,
  "sailthru.date": META_OTHER,
  pubdate: META_OTHER,
  publishdate: META_OTHER,
  "publish-date": META_OTHER,
  publish_date: META_OTHER,
  "published-date": META_OTHER,
  "article.published": META_OTHER,
  article_date_original: META_OTHER,
  "original-publish-date": META_OTHER,
  "cxenseparse:recs:publishtime": META_OTHER,
  "bt:pubdate": META_OTHER,
  release_date: META_OTHER,
  "dc.date.available": META_OTHER,
  "dc.date": META_OTHER,
  "dc.date.issued": META_OTHER,
  "dc.date.created": META_OTHER,
  "dcterms.date": META_OTHER,
  "dcterms.issued": META_OTHER,
  "dcterms.created": META_OTHER,
  citation_publication_date: META_OTHER,
  citation_date: META_OTHER,
  citation_online_date: META_OTHER,
  datecreated: META_OTHER,
  date: META_OTHER,
};

const MODIFIED: Record<string, number> = {
  "article:modified_time": META_MAIN,
  "og:updated_time": META_MAIN,
  "og:article:modified_time": META_MAIN,
  datemodified: META_MAIN,
  "dcterms.modified": META_OTHER,
  "dc.date.modified": META_OTHER,
  "last-modified": META_OTHER,
  lastmod: META_OTHER,
};

const AUTHOR: Record<string, number> = {
  author: META_MAIN,
  "article:author": META_MAIN,
  "parsely-author": META_MAIN,
  "sailthru.author": META_MAIN,
  "cxenseparse:author": META_OTHER, // cXense's page tags (NPR and other publishers' pages)
  "dc.creator": META_OTHER,
  "dcterms.creator": META_OTHER,
  byl: META_OTHER,
  citation_author: META_OTHER,
};

const SITENAME: Record<string, number> = { "og:site_name": META_MAIN, "application-name": META_OTHER, "dc.publisher": META_OTHER };
const DESCRIPTION: Record<string, number> = {
  description: META_MAIN,
  "og:description": META_OTHER,
  "twitter:description": META_OTHER,
  "dc.description": META_OTHER,
};
const SECTION = ["article:section", "parsely-section", "category"];
const TAGS = ["article:tag", "keywords", "news_keywords", "parsely-tags"];

type MetaField = "date" | "dateModified" | "author" | "sitename" | "description" | "canonical" | "categories" | "tags";

/** Every <meta> name a rule reads: the field it gives and its rank. */
const META_RULES = new Map<string, readonly [MetaField, number]>([
  ...Object.entries(PUBLISHED).map(([k, r]) => [k, ["date", r]] as const),
  ...Object.entries(MODIFIED).map(([k, r]) => [k, ["dateModified", r]] as const),
  ...Object.entries(AUTHOR).map(([k, r]) => [k, ["author", r]] as const),
  ...Object.entries(SITENAME).map(([k, r]) => [k, ["sitename", r]] as const),
  ...Object.entries(DESCRIPTION).map(([k, r]) => [k, ["description", r]] as const),
  ["og:url", ["canonical", META_OTHER]],
  ...SECTION.map((k) => [k, ["categories", META_MAIN]] as const),
  ...TAGS.map((k) => [k, ["tags", META_MAIN]] as const),
]);

/** Class words that mark a byline; "comment-author" and the like are readers', not the page's. */
const BYLINE_CLASS = /(?:^|[\s_-])(?:authors?|byline|autor|auteur)(?:$|[\s_-])/i;
/** A link to an author's page, in any case ("/author/jane-roe", "/Authors/…", "/autor/…", "/byline/…"): its text is a name. */
const AUTHOR_HREF = /\/(?:author|authors|autor|auteur|byline)\//i;
/**
 * A cheap screen before AUTHOR_HREF, which would run on every link's href: a "/" then "au" or
 * "by" in either case, as each of the pattern's words starts. A pattern with a literal "/" first
 * and no /i costs less than the case-insensitive pattern alone, and than a loop over the slashes
 * (which made the hooks 13% dearer: experiments/results/2026-11-27-metafix.md).
 */
const AUTHOR_HREF_SCREEN = /\/[aAbB][uUyY]/;
const NOT_BYLINE_CLASS = /comment|avatar|bio|img|image|photo|description|about|box|list/i;
/**
 * The element of an author box that holds the name ("elementor-author-box__name", "author-box-name",
 * "authorName"): a byline, where the box around it (its bio, its links) is not; and a byline's
 * class written as what it says ("authored-by").
 */
const AUTHOR_NAME_CLASS = /author[\w-]*name(?:$|[\s_-])|(?:^|[\s_-])authored-by(?:$|[\s_-])/i;
/** A reader's comment's author ("comment-author-name") is no byline. */
const COMMENT_CLASS = /comment/i;

const SPACES = /\s+/g;
const WRITTEN_BY = /^\s*(?:written by|author|autor|auteur|verfasst von|escrito por)\s*$/i;
/** A short block that labels a date: "Last updated: …", "Published …", "发表于 …", "Veröffentlicht am …". */
export const DATE_LABEL =
  /(?:^|\b)(?:published|updated|posted|last (?:updated|modified|reviewed)|date|veröffentlicht|aktualisiert|stand|publié|mis à jour|publicado|actualizado|pubblicato|aggiornato|gepubliceerd|bijgewerkt|опубликовано|обновлено)\b|发表|發表|发布|發佈|日期|时间|時間|更新|投稿|公開/i;
/** A short block that labels its author: "By Jane Roe", "作者：…", "Autor: …", "文/…". */
const AUTHOR_LABEL =
  /^(?:by|written by|posted by|von|par|por|door|autor(?:in)?|auteur|author)\s*:?\s+\S|^(?:作者|编辑|編輯|记者|記者|文)\s*[:：/]/i;
/**
 * A block that is only an author's label ("Author", "Written by", "By", "Von", "Автор"): the
 * name is the next block (a label in its own `<h3>`, `<dt>`, `<div>`). A plural ("Authors",
 * "Author(s)") labels the name blocks that follow it, one a block.
 */
const AUTHOR_LABEL_ONLY =
  /^(?:by|written by|posted by|von|par|por|di|door|autor(?:in|en|es)?|auteurs?|authors?|author\(s\)|авторы?|作者|记者|記者)\s*[:：]?$/i;
const MAX_LABEL_ONLY = 12;
/**
 * How many different people (full names) a rank's bylines name on a listing (see isListing): on
 * WCXB dev's tuning fold, 6 rather than 4 or 5 kept every right author (4: 3 lost, 5: 1 lost,
 * measured before the exception for a first name named again).
 */
const LISTING_NAMES = 6;
/** An avatar's initials in place of a portrait: "CP", "E". */
const INITIALS = /^\p{Lu}{1,3}$/u;
const PLURAL_LABEL = /s\)?\s*[:：]?$|ы\s*[:：]?$|en\s*[:：]?$/i;
/** The longest block read as the name after a label alone, and how many a plural label reads. */
const MAX_LABELLED_NAME = 100;
const MAX_LABELLED_NAMES = 10;
/** A short block that is a date and nothing else: "2005-01-14 17:02:30", "(2022/02/13)". */
const DATE_ONLY =
  /^[\s(（[]*(?:19|20)\d{2}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}\s*日?(?:\s*\d{1,2}:\d{2}(?::\d{2})?(?::\d)?)?[\s)）\]]*$/;
/** A Chinese credit anywhere in a short block: "（责任编辑：魏喆）", "本报记者 葛灵丹", "作者:孙仲旻". */
const CJK_CREDIT =
  /(责任编辑|編輯|编辑|记者|記者|作者)\s*[:：\s]\s*([\p{Script=Han}·]{2,4}(?:\s[\p{Script=Han}]{2,4})?|[A-Za-z][\w.-]{1,24})(?=$|[\s)）,，。|/])/u;
/**
 * Text for screen readers only (Bootstrap's `sr-only` and `visually-hidden`, WordPress's
 * `screen-reader-text`, XenForo's `u-srOnly`): what an icon or a layout says to the eye, in
 * words, such as who started a thread.
 */
/**
 * A forum post's poster (phpBB's and XenForo's `username`, vBulletin's `bigusername`): the first
 * is the thread's starter on its first page; ranked last of the markup, after any byline.
 */
const USERNAME_CLASS = /(?:^|\s)(?:big)?username(?:\s|$)/;
/** What SCREEN_READER and USERNAME_CLASS need, in one scan of a class value. */
const SIDE_HINT = /sr|reader|visually|username/;
const SCREEN_READER = /(?:^|\s)(?:sr-only|u-srOnly|screen-reader-text|visually-hidden)(?:\s|$)/;
/** A screen reader's label of the link after it: "Thread starter" (XenForo's threads), "Posted by", "Author". */
const AUTHOR_LINK_LABEL = /^\s*(?:thread starter|started by|original poster|posted by|written by|author|by)\s*:?\s*$/i;
/**
 * A reporter credited without a colon: "河南商报记者马俊峰/文", "本报记者罗科苏盈发自北京", and the
 * closing "（姚峰 上海报道）" (the reporter, then where from).
 */
const CJK_REPORTER =
  /(?:记者|記者)\s*([\p{Script=Han}·]{2,4})(?=\s*(?:[/／]\s*文|发自|發自|报道|報導|摄|攝))|[（(]([\p{Script=Han}]{2,4})\s+[\p{Script=Han}]{0,6}(?:报道|報導)[)）]/u;
/**
 * A Chinese news story's closing credit, at the end of its last paragraph (no line of its own, so
 * longer than the lines read for a byline): "（总台记者 张倩）", "（本报记者 李明）", the reporter's
 * name after "记者" and the desk before it. On Chinese-WCE's tuning fold 1 more right author, no
 * other page of the eight sets changed.
 */
const CLOSING_CREDIT = /[（(]\s*[\p{Script=Han}]{0,6}(?:记者|記者)\s*([\p{Script=Han}·]{2,4})\s*[)）]$/u;
/**
 * A Chinese blog's or forum's post line, the poster's name then "发表于" and the day: "[湖湘文化]陈天华
 * 《警世钟》 ggjjzhzz 发表于 2005-9-15 11:46:00". On Chinese-WCE's tuning fold 1 more right author,
 * no other page of the eight sets changed.
 */
const CJK_POSTER = /(?:^|\s)([A-Za-z][\w.-]{1,24}|\p{Script=Han}{2,4})\s*(?:发表于|發表於|发表|發表)\s*[:：]?\s*(?:19|20)\d{2}/u;
/** A character every Chinese credit holds (记者, 编辑, 作者, 报道, 发表, and their traditional forms). */
const CJK_CREDIT_HINT = /[记記编編輯作报報发發]/;
/** An editor's credit ("编辑：金金", "责任编辑：魏喆"): the page's author only where no writer is credited. */
const EDITOR_CREDIT = /^[\s(（]*(?:责任编辑|編輯|编辑)/;
/** A forum user's page ("/user/julian", "/u/Matt_Brooks"): its last segment is the handle; a blog's "/author/jane-doe" slug is no name. */
const USER_PAGE = /\/(?:user|users|u)\/([^/?#]+)\/?(?:[?#].*)?$/;
const MAX_LABELLED = 160;
/**
 * How far down the page's lines a byline is looked for when the markup names no one: past a
 * long menu, not into a listing's teasers (on WCXB dev's tuning fold, 120 blocks rather than 80:
 * 4 more right authors, 1 more page given one without gold; 160: 1 more right, 2 more without).
 */
const MAX_AUTHOR_BLOCKS = 120;
const MAX_DATE_LINE = 40;
/** A reading time at a line's end, after a separator: " ・ 3 min read", " - 11 minutes", " | 5 Min". */
const READING_TIME = /\s*[-–—|·・•]\s*\d{1,3}\s*(?:min(?:ute)?s?\.?|minuten|minutos)(?:\s+(?:read|reading|de lectura|Lesezeit))?\s*$/i;
/**
 * A whole day written in numbers with its time of day, anywhere in a line: "2005-04-25 08:24:06",
 * "2005年3月11日12:12". Chinese news pages show their date so under the headline, in a line that
 * also gives the site and the source ("http://biz.163.com 2005-04-25 08:24:06 来源: 第一财经日报"),
 * longer than a date line of a few words and with no label before the date.
 */
const NUMERIC_DATE_TIME = /(?<!\d)(?:19|20)\d{2}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}\s*日?\s*\d{1,2}:\d{2}/;
const YEAR_IN_LINE = /(?:^|\D)(?:19|20)\d{2}(?:\D|$)/;
/**
 * The page's first blocks only: a page's own date and byline sit above or beside its text, and
 * a listing's later dates are its items' (on WCXB dev's tuning fold, 80 blocks rather than 400:
 * 0.840 right days instead of 0.851, dates where the gold has none 0.284 instead of 0.341).
 */
const MAX_BLOCKS_SCANNED = 80;
/**
 * A date labelled as a release ("Release Date: 21 Aug, 2012", "Released", "Erscheinungsdatum"):
 * when a game, a film, a record or a program came out, which a store's or a catalogue's page
 * shows beside its title, not when the page was written. Read only on a date line beside the
 * headline, and on the short label block just before it.
 */
const RELEASE_LABEL =
  /\b(?:release date|released(?: on)?|date of release|erscheinungsdatum|erschienen|date de sortie|fecha de (?:lanzamiento|estreno)|data di uscita|data de lançamento)\b|発売日|发行日期|發行日期|发售日期|上映日期/i;
const MAX_LABEL_BLOCK = 30;
/**
 * A byline, which often ends with the day it was written: "by ALLIN ONE on Jan 22, 2025",
 * "Reviewed by Justin Roe, Trial Attorney, on December 9, 2024".
 */
const BYLINE_START = /^\s*(?:(?:written|reviewed|medically reviewed|fact[- ]checked) )?by\s/i;
/** The blocks beside a page's headline where its date is shown: see headlineDate. */
const HEADLINE_BEFORE = 3;
const HEADLINE_AFTER = 20;
/** Class words of an element that shows the page's date ("post-date", "entry-published", "timestamp"). */
const DATE_CLASS = /date|publish|posted|timestamp|datum|fecha/i;
const NOT_DATE_CLASS = /comment|reply|update-?(?:s|btn|button)|validate|candidate/i;
/**
 * PunBB's and FluxBB's post: `div.postleft > dl > dt > strong` is its poster's name (the thread's
 * starter first), as phpBB's `username` is (USERNAME_CLASS).
 */
/** hAtom's class of a post's publication date ("entry-date published"); "updated" is its last change. */
const HATOM_PUBLISHED = /(?:^|\s)published(?:\s|$)/;
/** Item properties of the publication date ("datePublished", "published-date"). */
const PUBLISHED_PROP = /^(?:date-?published|published-?date|pubdate|date-?created)$/i;

/**
 * A cheap first look before BYLINE_CLASS and DATE_CLASS, one scan of a class value where a page
 * has hundreds (about 540 a page on WCXB dev, one in six passing): author, autor and auteur hold
 * "ut", byline "yline"; date and datum "at", publish "ublish", posted "osted", timestamp "amp",
 * fecha "echa".
 */
const MAY_BE_BYLINE_OR_DATE = /ut|yline|at|ublish|osted|amp|echa/;
/** Of a class value that passed MAY_BE_BYLINE_OR_DATE: whether it may be a byline's. */
function mayBeByline(value: string): boolean {
  return value.includes("ut") || value.includes("yline");
}
/** The same for DATE_CLASS (case matters, as in MAY_BE_BYLINE_OR_DATE). */
function mayBeDate(value: string): boolean {
  return value.includes("at") || value.includes("ublish") || value.includes("osted") || value.includes("amp") || value.includes("echa");
}

/** The JSON-LD keys readJsonLd reads. */
const JSON_LD_KEYS = /"(?:date(?:Published|Created|Modified)|author|creator|publisher|articleSection|keywords|WebSite)"/;
const ABSOLUTE_HTTP = /^https?:\/\/[^\s]+$/i;

const MAX_TEXT = 300;
const MAX_SIDE_TEXT = 1000;
const MAX_JSON_LD = 1 << 20;
const MAX_FIELD = 1000;
const MAX_LIST = 50;

const enum Capture {
  None,
  JsonLd,
  Author,
  Time,
  Tag,
  Category,
  DateText,
  Label,
}

/** The attributes of the element just opened that any rule reads. */
interface Attributes {
  name: string;
  property: string;
  content: string;
  itemprop: string;
  rel: string;
  href: string;
  datetime: string;
  httpEquiv: string;
  pubdate: boolean;
}

const clean = (s: string): string => s.replace(SPACES, " ").trim();

/** A candidate string for a date or an author, with its rank; the first of a rank wins. */
interface Candidate {
  value: string;
  rank: number;
  /** The block it sits in (-1: not known, or not shown: the markup's); found in finish() from `shown`. */
  at: number;
  /** The text the page shows for it, by which its block is found ("" when it shows none). */
  shown: string;
}
/** An author candidate; `handle`: a forum's username, where digits belong to the name ("lulug30"). */
interface AuthorCandidate extends Candidate {
  handle: boolean;
  /** The names namesOf read in it, once: bestAuthor, isListing and shownAuthors each ask for them (undefined: not read yet). */
  names: string[] | undefined;
}
/** A date line that headlineDate read: its date and its block. */
interface DateLine {
  iso: string;
  block: number;
}
/** The author bestAuthor chose: its names, its candidate, and whether they are the site's own name only (a site that credits itself). */
interface ChosenAuthor {
  names: string;
  candidate: Candidate;
  selfCredit: boolean;
}

/** Candidates kept per field: a page offers a handful; a page that offers hundreds is not read further. */
const MAX_CANDIDATES = 32;

/** The first of the best-ranked candidates (a stable sort keeps page order within a rank). */
function byRank(candidates: Candidate[]): Candidate[] {
  return candidates.length < 2 ? candidates : candidates.sort((a, b) => a.rank - b.rank);
}

/** No value yet: any offer replaces it (offer() never writes into a slot, it replaces it). */
const NO_VALUE: Readonly<{ value: string; rank: number }> = Object.freeze({ value: "", rank: NONE });
/** No entries yet: the first entry of a list replaces it with a new array (frozen: a push would throw). */
const NO_ENTRIES = Object.freeze([]) as unknown as string[];
/** No JSON-LD read yet: the first script read replaces it with facts of the page's own. */
const NO_FACTS: JsonLdFacts = Object.freeze({ authors: NO_ENTRIES, sections: NO_ENTRIES, keywords: NO_ENTRIES }) as JsonLdFacts;

export class MetadataCollector implements MarkupObserver {
  capturing = false;
  private capture = Capture.None;
  private captureLevel = -1;
  private captureRank = NONE;
  private captured = "";
  private boundary = false; // an element began or ended inside the capture since the last text
  /**
   * A second capture beside the first, for what only names: a byline inside an element captured
   * as a date (WordPress gives every post's `<article>` the class `status-publish`, and themes
   * wrap bylines in `posted-by` spans), a forum's username, a screen reader's label and the link
   * it labels. It never keeps the first from starting, so every date is read as before. -1: none.
   */
  private sideLevel = -1;
  private sideKind = Capture.None;
  private sideRank = NONE;
  private sideHandle = false; // a forum's username: read as a handle (handleIn), not as a byline
  private side = "";
  private sideEdge = false;
  private sideSeen = 0; // characters of text in the side capture's element, past MAX_TEXT too

  private element = "";
  private level = 0;
  private attrs: Attributes = emptyAttributes();
  private pending = false; // the element's attributes say something: settle() reads them
  private touched = false; // some attribute was kept: clear before the next element
  private htmlSeen = false;
  private timesSeen = 0;
  private twitterAuthorKey = ""; // "twitter:data1" once "twitter:label1" said "Written by"
  private timeDated = false; // the first <time> gave its datetime: its text is not read
  private authorNext = false; // a screen reader's label said "Thread starter": the next link names them
  private posterLevel = -1; // the level of an open PunBB/FluxBB post's poster column (div.postleft): its <dt> names the poster
  private listing = false; // bestAuthor found a listing's bylines: the page's lines are not read for a byline
  private timeCandidate: Candidate | null = null; // the open <time>'s datetime candidate: its text says where it is shown
  private atBlock = -1; // the block finish() reads lines of: its candidates sit there

  private lang = "";
  private langRank = NONE;
  private values: Record<"sitename" | "description" | "canonical", { value: string; rank: number }> = {
    sitename: NO_VALUE,
    description: NO_VALUE,
    canonical: NO_VALUE,
  };
  private dates: Candidate[] = [];
  private modified: Candidate[] = [];
  private authors: AuthorCandidate[] = [];
  /** What each distinct date candidate of the page read as (null: no date): read once, whichever list offers it again. */
  private readings: DateReadings = new Map();
  private categories: string[] = NO_ENTRIES;
  private categoryRank = NONE;
  private tags: string[] = NO_ENTRIES;
  private tagRank = NONE;
  private jsonLd: JsonLdFacts = NO_FACTS;
  private jsonLdChars = 0;

  /** Forget the previous page: one collector serves a whole run, page after page. */
  reset(): void {
    this.capturing = false;
    this.capture = Capture.None;
    this.captureLevel = -1;
    this.captured = "";
    this.sideLevel = -1;
    this.element = "";
    this.pending = false;
    this.htmlSeen = false;
    this.timesSeen = 0;
    this.twitterAuthorKey = "";
    this.timeDated = false;
    this.authorNext = false;
    this.posterLevel = -1;
    this.listing = false;
    this.timeCandidate = null;
    this.atBlock = -1;
    this.lang = "";
    this.langRank = NONE;
    // In place, and nothing allocated for a page that offers none: a run reads pages by the million.
    const v = this.values;
    v.sitename = v.description = v.canonical = NO_VALUE;
    // Emptied in place: one collector serves a whole run, and these arrays are reused page after page.
    this.dates.length = 0;
    this.modified.length = 0;
    this.authors.length = 0;
    if (this.readings.size > 0) this.readings.clear();
    // A page's lists are its output's: each page that has entries gets new ones (addTo).
    this.categories = NO_ENTRIES;
    this.categoryRank = NONE;
    this.tags = NO_ENTRIES;
    this.tagRank = NONE;
    this.jsonLd = NO_FACTS;
    this.jsonLdChars = 0;
  }

  open(name: string, level: number): boolean {
    if (this.capturing) this.boundary = true;
    if (this.sideLevel >= 0) this.sideEdge = true;
    if (this.pending) this.settle();
    else if (this.touched) this.clearAttributes();
    this.element = name;
    this.level = level;
    if (this.posterLevel >= 0) {
      // An element at the column's level or above opens after the column has ended.
      if (level <= this.posterLevel) this.posterLevel = -1;
      else if (name === "dt" && this.authors.length < MAX_CANDIDATES) this.startSide(Capture.Author, level, VISIBLE_TEXT, true);
    }
    if (this.authorNext) {
      this.authorNext = false;
      if (name === "a" && this.authors.length < MAX_CANDIDATES) this.startSide(Capture.Author, level, VISIBLE_MARKED, true);
    }
    if (name === "time") {
      this.timesSeen++;
      this.startCapture(Capture.Time, level, this.timesSeen === 1 ? VISIBLE_GUESS : NONE);
    }
    return true;
  }

  attribute(name: string, value: string): void {
    // Called for every attribute of every element: the common ones (class on any element, href
    // on links) cost a length check or two; only what a rule reads is kept.
    const element = this.element;
    const a = this.attrs;
    switch (name) {
      case "class":
        if (value === "postleft" && element === "div") this.posterLevel = this.level;
        // hAtom's publication date, which WordPress themes write on every post's <time>: a <time pubdate>.
        if (element === "time" && HATOM_PUBLISHED.test(value)) {
          a.pubdate = true;
          this.pending = this.touched = true;
        }
        // An author box's own name element ("author-info" > "name"): the name, where the box's
        // text goes on with a role or a credit, or its template's indentation fills the 300
        // characters the box's capture keeps before the name is reached.
        if (
          value === "name" &&
          this.capture === Capture.Author &&
          this.captureRank === VISIBLE_GUESS &&
          this.authors.length < MAX_CANDIDATES
        )
          this.startSide(Capture.Author, this.level, VISIBLE_GUESS);
        if (
          (this.capture !== Capture.None && this.capture !== Capture.DateText) ||
          !MAY_BE_BYLINE_OR_DATE.test(value) ||
          element === "body" ||
          element === "html"
        ) {
          this.screenReaderLabel(value);
          return;
        }
        if (
          mayBeByline(value) &&
          ((BYLINE_CLASS.test(value) && !NOT_BYLINE_CLASS.test(value)) || (AUTHOR_NAME_CLASS.test(value) && !COMMENT_CLASS.test(value)))
        ) {
          if (this.authors.length < MAX_CANDIDATES) this.startAuthor(this.level, VISIBLE_GUESS);
        } else if (this.dates.length < MAX_CANDIDATES && mayBeDate(value) && DATE_CLASS.test(value) && !NOT_DATE_CLASS.test(value)) {
          this.startCapture(Capture.DateText, this.level, VISIBLE_TEXT);
        } else this.screenReaderLabel(value);
        return;
      case "itemprop":
        a.itemprop = value;
        this.pending = this.touched = true;
        if (value === "author" && element !== "meta" && element !== "link") this.startAuthor(this.level, VISIBLE_MARKED);
        // schema.org's Person inside the author's element: its `name` is the name as the page
        // marks it ("Ejp55230"), where the element's whole text goes on with an avatar's letter.
        else if (value === "name" && element !== "meta" && this.inMarkedAuthor())
          this.startSide(Capture.Author, this.level, VISIBLE_MARKED, true);
        return;
      case "rel":
        if (element === "link") {
          a.rel = value.toLowerCase();
          this.pending = this.touched = true;
        } else if (element === "a") {
          const rel = value.toLowerCase();
          if (rel === "author") this.startAuthor(this.level, VISIBLE_MARKED);
          else if (rel.includes("category")) this.startCapture(Capture.Category, this.level, VISIBLE_MARKED);
          else if (rel === "tag") this.startCapture(Capture.Tag, this.level, VISIBLE_MARKED);
        }
        return;
      case "href":
        if (element === "link") {
          a.href = value;
          this.touched = true;
        } else if (
          element === "a" &&
          (this.capture === Capture.None || this.capture === Capture.DateText) &&
          AUTHOR_HREF_SCREEN.test(value) &&
          AUTHOR_HREF.test(value)
        ) {
          if (this.authors.length < MAX_CANDIDATES) this.startAuthor(this.level, VISIBLE_GUESS);
        }
        return;
      case "type":
        if (element === "script" && value.trim().toLowerCase() === "application/ld+json") {
          this.startCapture(Capture.JsonLd, this.level, JSON_LD);
        }
        return;
      case "lang":
        if (element === "html" && !this.htmlSeen) this.offerLang(value, 0);
        return;
      case "content":
        a.content = value;
        this.touched = true;
        if (element === "meta") this.pending = true;
        return;
      case "datetime":
        a.datetime = value;
        this.pending = this.touched = true;
        return;
      case "pubdate":
        a.pubdate = true;
        this.pending = this.touched = true;
        return;
    }
    if (element !== "meta") return;
    this.touched = true;
    if (name === "name") a.name = value.toLowerCase();
    else if (name === "property") a.property = value.toLowerCase();
    else if (name === "http-equiv") a.httpEquiv = value.toLowerCase();
  }

  text(data: string): void {
    if (this.sideLevel >= 0) {
      this.sideSeen += data.length;
      if (this.side.length < MAX_TEXT) {
        this.side += this.sideEdge && this.side.length > 0 ? `\n${data}` : data;
        this.sideEdge = false;
      }
    }
    if (this.capture === Capture.JsonLd) {
      if (this.captured.length < MAX_JSON_LD) this.captured += data;
    } else if (this.captured.length < MAX_TEXT) {
      // A line break where an element began or ended: "Jane Doe</a><span>Last updated" are two
      // things, where "O", "'", "Brien" (an entity splits a text) are one.
      this.captured += this.boundary && this.captured.length > 0 ? `\n${data}` : data;
      this.boundary = false;
    }
  }

  close(level: number): void {
    this.boundary = true;
    if (this.sideLevel >= 0) {
      this.sideEdge = true;
      if (level <= this.sideLevel) this.closeSide();
    }
    if (level !== this.captureLevel) return;
    if (this.pending) this.settle();
    const text = this.captured;
    const rank = this.captureRank;
    switch (this.capture) {
      case Capture.JsonLd:
        // Parsing is the cost: a script that names none of the keys read (a breadcrumb list, an
        // organisation) is not parsed at all.
        if (this.jsonLdChars < 4 * MAX_JSON_LD && JSON_LD_KEYS.test(text)) {
          this.jsonLdChars += text.length;
          if (this.jsonLd === NO_FACTS) this.jsonLd = { authors: [], sections: [], keywords: [] };
          readJsonLd(text, this.jsonLd);
        }
        break;
      case Capture.Author:
        this.offerAuthor(text, rank, false, text);
        // A byline often says when, too ("By Jane Roe, March 4, 2021").
        this.offerDate("date", text, VISIBLE_TEXT, text);
        break;
      case Capture.Time:
        if (rank !== NONE && !this.timeDated) this.offerDate("date", text, rank, text);
        // The datetime read from its attributes is shown as this text.
        if (this.timeCandidate !== null) this.timeCandidate.shown = text;
        this.timeCandidate = null;
        break;
      case Capture.DateText:
        this.offerDate("date", text, rank, text);
        break;
      case Capture.Tag:
        this.addTo("tags", clean(text), rank);
        break;
      case Capture.Category:
        this.addTo("categories", clean(text), rank);
        break;
    }
    this.capture = Capture.None;
    this.capturing = this.sideLevel >= 0;
    this.captureLevel = -1;
    this.captured = "";
  }

  /**
   * The page's metadata; the collector is then ready for the next page. `url` (the record's, ""
   * when none) resolves a relative canonical URL and gives a date in its path. `capturedAt` (ms
   * since the epoch: the record's WARC-Date, or a plain file's modification time) bounds its
   * dates: none after it (and a day, for time zones ahead of UTC) is taken. Without it, only
   * the lower bound (1995) holds: the run's own clock never decides what a page says. `blocks`
   * (the segmenter's, of the same page) give the short lines that label a date or an author when
   * the markup names neither, and where the page's headline (its first `<h1>`, else the block that
   * repeats `title`, the page's `<title>`) is: a page is given a publication date only where it
   * reads as a publication (see below). Without `blocks`, the markup's dates are taken as they are.
   */
  finish(url: string, capturedAt: number = NO_BOUND, blocks?: ReadonlyArray<PageBlock>, title = ""): PageMetadata {
    return this.finishPage(url, capturedAt, blocks, title, undefined);
  }

  /**
   * finish(), and the dates and authors the page shows with the blocks they sit in, for
   * chooseByMainText to decide again once the blocks of the main text are known.
   */
  finishWithShown(
    url: string,
    capturedAt: number,
    blocks: ReadonlyArray<PageBlock>,
    title = "",
  ): { metadata: PageMetadata; shown: ShownCandidates } {
    const shown: ShownCandidates = {
      dates: [],
      authors: [],
      dateBlock: NOT_SHOWN,
      authorBlock: NOT_SHOWN,
      bound: NO_BOUND,
      lang: "",
      publishers: [],
      host: "",
      readings: this.readings,
      noPublicationUrl: false,
    };
    return { metadata: this.finishPage(url, capturedAt, blocks, title, shown), shown };
  }

  private finishPage(
    url: string,
    capturedAt: number,
    blocks: ReadonlyArray<PageBlock> | undefined,
    title: string,
    shown: ShownCandidates | undefined,
  ): PageMetadata {
    if (this.pending) this.settle();
    const linesRead = this.authors.length === 0 && this.jsonLd.authors.length === 0;
    if (blocks !== undefined) this.readLabelledBlocks(blocks);
    // In page order, before any is ranked: each shown candidate's block, found from its text.
    if (shown !== undefined && blocks !== undefined) {
      placeShown(this.dates, blocks);
      placeShown(this.authors, blocks);
    }
    const out: PageMetadata = {};
    const v = this.values;
    const ld = this.jsonLd;
    // JSON-LD whose datePublished is its dateModified, to the letter, is a CMS's stamp of its last
    // save, written into both: a date shown beside the headline on another day goes before it
    // (on WCXB dev's tuning fold: 24 such pages, 2 more right days, none lost). Only that line:
    // a page's other dates (a masthead's today, a teaser's) are not its own.
    const saveStamp = ld.datePublished !== undefined && ld.datePublished === ld.dateModified;
    if (ld.datePublished !== undefined) this.offerDate("date", ld.datePublished, JSON_LD);
    if (ld.dateModified !== undefined) this.offerDate("dateModified", ld.dateModified, JSON_LD);
    if (ld.authors.length > 0) this.offerAuthor(ld.authors.join("; "), JSON_LD);
    if (ld.publisher !== undefined) this.offer("sitename", ld.publisher, META_OTHER);
    for (const section of ld.sections) this.addTo("categories", section, JSON_LD);
    for (const keyword of ld.keywords) this.addTo("tags", keyword, JSON_LD);
    if (this.lang.length > 0) out.declaredLang = this.lang;
    // The author is a site credited as its own (bestAuthor's selfCredit): see the date below.
    let selfCredited = false;
    if (this.authors.length > 0 || blocks !== undefined) {
      const publishers = [v.sitename.value];
      if (ld.publisher !== undefined) publishers.push(ld.publisher);
      let author = this.authors.length > 0 ? this.bestAuthor(publishers, hostOf(url)) : undefined;
      // The markup offered only what names no one (a role, the site, a date class's text): the
      // page's lines are read as on a page whose markup says nothing, and further down, where a
      // byline sits under a long menu.
      if ((author === undefined || author.selfCredit) && blocks !== undefined && !this.listing) {
        this.authors.length = 0;
        const n = Math.min(blocks.length, MAX_AUTHOR_BLOCKS);
        // Where the markup offered nothing, readLabelledBlocks read the first blocks already.
        for (let b = linesRead ? Math.min(n, MAX_BLOCKS_SCANNED) : 0; b < n; b++) {
          this.atBlock = b;
          if (blocks[b].text.length <= MAX_LABELLED) this.offerAuthorBlock(blocks, b);
          else this.offerClosingCredit(blocks[b].text);
        }
        this.atBlock = -1;
        const byLine = this.authors.length > 0 ? this.bestAuthor(publishers, hostOf(url)) : undefined;
        if (byLine !== undefined && (author === undefined || author.selfCredit || !byLine.selfCredit)) author = byLine;
      }
      if (author !== undefined) out.author = author.names;
      selfCredited = author?.selfCredit === true;
      if (shown !== undefined) this.shownAuthors(shown, author?.candidate ?? null, publishers, hostOf(url));
    }
    // A JSON-LD WebPage's datePublished is when a CMS first saved the page, which it records for
    // every page, a service's or a product's too: a publication's date only where the page names
    // who wrote it (a post, a forum thread), and only where the page shows no date of its own
    // (ranked after them all: it went before "Updated on April 19, 2025" on a post whose gold
    // has that day). Not read at all, on WCXB dev's tuning fold: the same right days, one page
    // fewer dated without gold (an article naming its author), and forum threads and Q&A pages
    // whose only date it is (magic-html's) left undated.
    if (ld.datePublished === undefined && ld.pageDatePublished !== undefined && out.author !== undefined) {
      this.offerDate("date", ld.pageDatePublished, CMS_SAVED);
    }
    const bound = Number.isFinite(capturedAt) ? capturedAt : NO_BOUND;
    const urlDate = url.length > 0 ? dateInUrl(url, bound) : undefined;
    if (shown !== undefined) shown.noPublicationUrl = urlDate === undefined && urlOfNoPublication(url);
    // Found only where a rule below needs them: most pages are dated by their markup and name their author.
    let headlines: readonly number[] | undefined;
    // The date line beside them, once looked for (null: not yet): datedHeadline asks again below.
    let line: DateLine | undefined | null = null;
    const best = this.bestDate(this.dates, bound);
    let date = best?.iso;
    // Where it is shown (NOT_SHOWN: the markup's or the URL's).
    let dateBlock =
      best !== undefined && best.candidate.rank >= VISIBLE_MARKED && best.candidate.rank <= EDITED_TEXT ? best.candidate.at : NOT_SHOWN;
    if (saveStamp && date !== undefined && blocks !== undefined) {
      line = this.headlineDate(blocks, (headlines ??= headlinesOf(blocks, title)), bound);
      if (line !== undefined && line.iso.slice(0, 10) !== date.slice(0, 10)) {
        date = line.iso;
        dateBlock = line.block;
      }
    }
    if (date === undefined && blocks !== undefined) {
      line = this.headlineDate(blocks, (headlines ??= headlinesOf(blocks, title)), bound);
      if (line !== undefined) {
        date = line.iso;
        dateBlock = line.block;
      }
    }
    date ??= urlDate;
    // A publication date only for a page that reads as a publication: one that names who wrote
    // it, dates itself as an article in its markup or its URL, or shows a date beside its
    // headline. A service's, a product's or a manual's page has no publication date, whatever
    // its CMS recorded (on WCXB dev's tuning fold: dates where the gold has none 0.224 -> 0.155).
    // Nor does a site's front page, or a page whose URL files it under a shop's, a service's or a
    // manual's section, whatever its markup or its named "author" (see urlOfNoPublication).
    if (
      date !== undefined &&
      (urlDate !== undefined ||
        (!urlOfNoPublication(url) &&
          ((out.author !== undefined && !selfCredited) ||
            this.articleDated(ld) ||
            this.datedHeadline(blocks, headlines, line, title, bound))))
    )
      out.date = date;
    // A site credited as its own author is the author of its publications only (a company's blog
    // post): on an undated page (a product, a listing, a service's or a front page) it is the
    // publisher's name, which the author field never holds ("Ridge" on ridge.com's wallets).
    if (selfCredited && out.date === undefined) delete out.author;
    if (shown !== undefined) this.shownDates(shown, out.date, out.date !== undefined ? dateBlock : NOT_SHOWN, bound);
    const modified = this.bestDate(this.modified, bound);
    if (modified !== undefined) out.dateModified = modified.iso;
    if (v.sitename.value.length > 0) out.sitename = v.sitename.value;
    if (v.description.value.length > 0) out.description = v.description.value;
    if (v.canonical.value.length > 0) out.canonicalUrl = resolve(v.canonical.value, url);
    if (this.categories.length > 0) out.categories = this.categories;
    if (this.tags.length > 0) out.tags = this.tags;
    // The page's readings are shown's now (chooseByMainText reads on in them): the next page's are new.
    if (shown !== undefined) this.readings = new Map();
    this.reset();
    return out;
  }

  /** The shown dates (in what the page shows: not its JSON-LD, `<meta>` or URL) and where the chosen one sits. */
  private shownDates(shown: ShownCandidates, date: string | undefined, dateBlock: number, bound: number): void {
    shown.dateBlock = dateBlock;
    shown.bound = bound;
    shown.lang = this.lang;
    for (const c of this.dates) {
      if (c.rank >= VISIBLE_MARKED && c.rank <= EDITED_TEXT && c.at >= 0) shown.dates.push({ value: c.value, block: c.at, rank: c.rank });
    }
    // A date line headlineDate read: shown there, and read as this date.
    if (date !== undefined && dateBlock >= 0 && !shown.dates.some((d) => d.block === dateBlock))
      shown.dates.push({ value: date, block: dateBlock, rank: LABELLED_TEXT });
    shown.dates.sort((a, b) => a.block - b.block);
  }

  /** The names that shown author candidates give (publishers left out), and where the chosen one sits. */
  private shownAuthors(shown: ShownCandidates, chosen: Candidate | null, publishers: readonly string[], host: string): void {
    shown.authorBlock = chosen !== null && chosen.rank >= VISIBLE_MARKED && chosen.rank <= EDITED_TEXT ? chosen.at : NOT_SHOWN;
    shown.publishers = publishers.filter((p) => p.length > 0);
    shown.host = host;
    // The chosen candidate is among them even where the page's lines were read after it (the list was emptied for them).
    const candidates =
      chosen === null || this.authors.includes(chosen as AuthorCandidate) ? this.authors : [...this.authors, chosen as AuthorCandidate];
    for (const c of candidates) {
      if (c.rank < VISIBLE_MARKED || c.rank > EDITED_TEXT || c.at < 0) continue;
      // The chosen candidate's names all count, the site's own too where the site credits itself.
      const names = this.namesOf(c).filter((name) => c === chosen || !isPublisher(name, publishers, host));
      if (names.length > 0) shown.authors.push({ value: names.join("; "), block: c.at, rank: c.rank });
    }
    shown.authors.sort((a, b) => a.block - b.block);
  }

  /**
   * The page's short text blocks that label a date or an author, for pages whose markup says
   * neither (old pages, forums, "Last updated: …" in a plain paragraph). A block must be short and
   * hold a digit (dates) or begin with its label (authors): chrono-node never sees the page's text.
   */
  private readLabelledBlocks(blocks: ReadonlyArray<PageBlock>): void {
    const needDate = this.dates.length === 0 && this.jsonLd.datePublished === undefined;
    const needAuthor = this.authors.length === 0 && this.jsonLd.authors.length === 0;
    if (!needDate && !needAuthor) return;
    const n = Math.min(blocks.length, MAX_BLOCKS_SCANNED);
    for (let b = 0; b < n; b++) {
      const text = blocks[b].text;
      if (text.length > MAX_LABELLED) {
        if (needAuthor) {
          this.atBlock = b;
          this.offerClosingCredit(text);
        }
        continue;
      }
      this.atBlock = b;
      if (needDate && /\d/.test(text) && (DATE_LABEL.test(text) || DATE_ONLY.test(text) || isDateLine(text)))
        this.offerDate("date", text, LABELLED_TEXT);
      if (needAuthor) {
        this.offerAuthorBlock(blocks, b);
      }
    }
    this.atBlock = -1;
  }

  /**
   * Whether the markup dates the page as a publication: JSON-LD of an article (not of a web page
   * as such), a `<meta>` publication date, or an element marked as one (`itemprop="datePublished"`,
   * `<time pubdate>`).
   */
  private articleDated(ld: JsonLdFacts): boolean {
    if (ld.datePublished !== undefined) return true;
    for (const candidate of this.dates) if (candidate.rank <= VISIBLE_MARKED) return true;
    return false;
  }

  /**
   * The date line beside a headline (from 3 blocks before it to 20 after): the first short block
   * there that labels a date, is one, or is a line of a few words with a year (the lines
   * readLabelledBlocks takes from the page's first blocks), wherever the headline sits: below a
   * long menu, past the first 80 blocks. It dates a page whose markup gives no date that reads,
   * and it says that a page reads as a publication: articles, posts and threads show when they
   * were written there. Service, product, documentation and listing pages carry dates too (a
   * CMS's save date in their markup, a footer's "last modified", an item's date far down the
   * page), but seldom beside their headline: on WCXB dev's tuning fold a line that reads as a
   * date stands beside the `<h1>` on 263 of the 363 pages whose gold has a publication date and
   * on 12 of the 316 whose gold has none.
   */
  private headlineDate(blocks: ReadonlyArray<PageBlock>, headlines: readonly number[], bound: number): DateLine | undefined {
    for (const headline of headlines) {
      if (headline < 0) continue;
      const end = Math.min(blocks.length, headline + HEADLINE_AFTER + 1);
      for (let b = Math.max(0, headline - HEADLINE_BEFORE); b < end; b++) {
        if (!mayBeDateLine(blocks[b].text, b > 0 ? blocks[b - 1].text : "")) continue;
        const iso = this.read(blocks[b].text, bound);
        if (iso !== undefined) return { iso, block: b };
      }
    }
    return undefined;
  }

  /**
   * Whether a date line stands beside the page's headline (headlineDate); a page with no headline
   * to judge by is not held to it. `found`: headlineDate's answer where finishPage looked for it
   * already, beside the `known` headlines (null: not looked for).
   */
  private datedHeadline(
    blocks: ReadonlyArray<PageBlock> | undefined,
    known: readonly number[] | undefined,
    found: DateLine | undefined | null,
    title: string,
    bound: number,
  ): boolean {
    if (blocks === undefined) return true;
    const headlines = known ?? headlinesOf(blocks, title);
    if (headlines[0] < 0 && headlines[1] < 0) return true;
    return (found === null ? this.headlineDate(blocks, headlines, bound) : found) !== undefined;
  }

  /**
   * The first of the best-ranked date candidates that reads as a date within the bounds. The bound
   * and the language are the page's, so a string reads the same wherever the page offers it.
   */
  private bestDate(candidates: Candidate[], bound: number): { iso: string; candidate: Candidate } | undefined {
    for (const candidate of byRank(candidates)) {
      const iso = this.read(candidate.value, bound);
      if (iso !== undefined) return { iso, candidate };
    }
    return undefined;
  }

  /** What a date string reads as, read once per page whichever list or block offers it (a byline's text is also a date candidate, a footer repeats). */
  private read(value: string, bound: number): string | undefined {
    return readDateOnce(this.readings, value, bound, this.lang);
  }

  /** The element just opened has all its attributes: read what it says. */
  /** Forgets the last element's attributes (in place: this runs once per element). */
  private clearAttributes(): void {
    const a = this.attrs;
    a.name = a.property = a.content = a.itemprop = a.rel = a.href = a.datetime = a.httpEquiv = "";
    a.pubdate = false;
    this.touched = false;
  }

  private settle(): void {
    this.pending = false;
    const a = this.attrs;
    this.readAttributes(a);
    this.clearAttributes();
  }

  private readAttributes(a: Attributes): void {
    const element = this.element;
    if (element === "html") this.htmlSeen = true;
    if (element === "meta") {
      if (a.httpEquiv === "content-language") this.offerLang(a.content, 1);
      else if (a.content.length > 0) {
        if (a.name.length > 0) this.metaFact(a.name, a.content);
        if (a.property.length > 0 && a.property !== a.name) this.metaFact(a.property, a.content);
        if (a.itemprop.length > 0) {
          // <meta itemprop="name" content="Tony B"> inside the author's element: the Person's name.
          if (a.itemprop === "name" && this.inMarkedAuthor()) this.offerAuthor(a.content, VISIBLE_MARKED, true);
          else this.metaFact(a.itemprop.toLowerCase(), a.content);
        }
      }
      return;
    }
    if (element === "link") {
      if (a.href.length > 0 && hasToken(a.rel, "canonical")) this.offer("canonical", a.href.trim(), META_MAIN);
      else if (a.itemprop === "author" && a.href.length > 0 && !a.href.includes("/")) this.offerAuthor(a.href, META_OTHER);
      else if (a.rel === "author" && a.href.includes("/u")) {
        // NodeBB's and Discourse's <link rel="author" href="…/user/julian">: the thread starter's handle.
        const user = USER_PAGE.exec(a.href);
        if (user !== null) this.offerAuthor(safeDecode(user[1]), META_OTHER, true);
      }
      return;
    }
    // <time datetime>, <span itemprop="datePublished" content=...>
    const when = a.datetime.length > 0 ? a.datetime : a.content;
    if (when.length > 0) {
      const prop = a.itemprop;
      if (a.pubdate || (prop.length > 0 && PUBLISHED_PROP.test(prop))) this.offerDate("date", when, VISIBLE_MARKED);
      else if (prop.length > 0 && prop.toLowerCase() === "datemodified") this.offerDate("dateModified", when, VISIBLE_MARKED);
      else if (element === "time" && this.timesSeen === 1) {
        // The page's first <time>: its datetime, not its text, is the date. Read whether or not a
        // byline around it is being captured (a discussion page's "via user 1 year ago").
        this.offerDate("date", when, VISIBLE_GUESS);
        this.timeDated = true;
      }
      // A <time>'s datetime is shown as its text: its block is found by that (close()).
      if (element === "time" && this.capture === Capture.Time && this.captureLevel === this.level && this.dates.length > 0) {
        const last = this.dates[this.dates.length - 1];
        if (last.value === when && last.shown.length === 0) this.timeCandidate = last;
      }
    }
    if (a.pubdate && this.capture === Capture.Time && this.captureLevel === this.level) this.captureRank = VISIBLE_MARKED;
  }

  private metaFact(key: string, content: string): void {
    // One lookup decides; most of a page's <meta> (viewport, og:image, twitter:card) say nothing here.
    const rule = META_RULES.get(key);
    if (rule === undefined) {
      // Yoast's pair: twitter:label1 "Written by", twitter:data1 "Tyler Brown".
      if (key.startsWith("twitter:")) this.twitterPair(key, content);
      return;
    }
    const value = clean(content);
    if (value.length === 0) return;
    const [field, rank] = rule;
    switch (field) {
      case "date":
      case "dateModified":
        this.offerDate(field, value, rank);
        return;
      case "author":
        // article:author is often a profile URL; a URL is no name.
        if (!value.includes("://") && !value.startsWith("@")) this.offerAuthor(value, rank);
        return;
      case "categories":
        this.addTo("categories", value, rank);
        return;
      case "tags":
        for (const tag of key === "article:tag" ? [value] : value.split(",")) this.addTo("tags", tag, rank);
        return;
      default:
        this.offer(field, value, rank);
    }
  }

  private twitterPair(key: string, content: string): void {
    if (key.startsWith("twitter:label")) {
      if (WRITTEN_BY.test(content)) this.twitterAuthorKey = `twitter:data${key.slice(13)}`;
    } else if (key === this.twitterAuthorKey) {
      this.offerAuthor(content, META_OTHER);
    }
  }

  /** A screen reader's text (read only where no byline or date class has the element): what it labels. */
  private screenReaderLabel(value: string): void {
    // Called for most class values of a page (those no byline or date pattern may match): only a
    // span's or a link's (what screen reader labels and usernames are) are scanned, once.
    const element = this.element;
    if ((element !== "span" && element !== "a") || this.sideLevel >= 0 || this.capture === Capture.Author || !SIDE_HINT.test(value)) return;
    if (SCREEN_READER.test(value)) this.startSide(Capture.Label, this.level, NONE);
    else if (USERNAME_CLASS.test(value) && this.authors.length < MAX_CANDIDATES)
      this.startSide(Capture.Author, this.level, VISIBLE_TEXT, true);
  }

  /** Whether an element marked as the author (`itemprop="author"`, `rel="author"`) is being captured. */
  private inMarkedAuthor(): boolean {
    return this.capture === Capture.Author && this.captureRank === VISIBLE_MARKED && this.authors.length < MAX_CANDIDATES;
  }

  /** An author's element: captured alone, or beside the date capture of an element around it. */
  private startAuthor(level: number, rank: number): void {
    if (this.capture === Capture.None) this.startCapture(Capture.Author, level, rank);
    else if (this.capture === Capture.DateText) this.startSide(Capture.Author, level, rank);
  }

  private startSide(kind: Capture, level: number, rank: number, handle = false): void {
    if (this.sideLevel >= 0) return;
    this.sideKind = kind;
    this.sideHandle = handle;
    this.sideLevel = level;
    this.sideRank = rank;
    this.side = "";
    this.sideEdge = false;
    this.sideSeen = 0;
    this.capturing = true;
  }

  /** The side capture's element ended: its names (never a date: the first capture reads dates), or what its label says. */
  private closeSide(): void {
    // A byline is a line: an element of more text is a post whose class names its author
    // (Serendipity's "serendipity_entry_author_Ian-Monroe"), and its first line is its heading.
    if (this.sideKind === Capture.Author) {
      if (this.sideSeen <= MAX_SIDE_TEXT) this.offerAuthor(this.side, this.sideRank, this.sideHandle, this.side);
    } else this.authorNext = this.side.length < 40 && AUTHOR_LINK_LABEL.test(this.side);
    this.sideLevel = -1;
    this.capturing = this.capture !== Capture.None;
  }

  private startCapture(kind: Capture, level: number, rank: number): void {
    if (this.capture !== Capture.None) return;
    this.capture = kind;
    this.capturing = true;
    this.captureLevel = level;
    this.captureRank = rank;
    this.captured = "";
    this.boundary = false;
  }

  private offerLang(value: string, rank: number): void {
    const lang = clean(value);
    if (lang.length === 0 || lang.length > 35 || rank >= this.langRank) return;
    // content-language may list several ("de, en"): the first is the page's.
    this.lang = lang.split(",")[0].trim();
    this.langRank = rank;
  }

  private offer(field: keyof MetadataCollector["values"], value: string, rank: number): void {
    const slot = this.values[field];
    if (rank >= slot.rank || value.length === 0) return;
    this.values[field] = { value: value.length > MAX_FIELD ? value.slice(0, MAX_FIELD) : value, rank };
  }

  /** Kept as written: read in finish(), against the capture's date, best rank first. */
  private offerDate(field: "date" | "dateModified", value: string, rank: number, shown = ""): void {
    const list = field === "date" ? this.dates : this.modified;
    if (list.length < MAX_CANDIDATES && value.length >= 4 && value.length <= 300) list.push({ value, rank, at: this.atBlock, shown });
  }

  /** Block `b` of the page, read as offerAuthorLine reads a line, or as the label of the name(s) after it. */
  private offerAuthorBlock(blocks: ReadonlyArray<PageBlock>, b: number): void {
    const text = blocks[b].text;
    if (text.length > MAX_LABEL_ONLY || !AUTHOR_LABEL_ONLY.test(text)) {
      this.offerAuthorLine(text);
      return;
    }
    const names: string[] = [];
    const several = PLURAL_LABEL.test(text);
    for (let n = b + 1; n < blocks.length && names.length < (several ? MAX_LABELLED_NAMES : 1); n++) {
      const next = blocks[n].text;
      // An avatar's initials ("CP") stand between the label and the name they abbreviate.
      if (INITIALS.test(next)) continue;
      // A displayed name, two words or more: after "Author", a forum table's next header is one
      // word ("Message", "Text"). After a plural label, each block is one name, and the first
      // that is none ends the list (a menu's "Winners!, My NaNoWriMo, …" is none).
      if (next.length > MAX_LABELLED_NAME || !next.includes(" ")) break;
      const found = authorNames(next, true).length;
      if (found === 0 || (several && found !== 1)) break;
      names.push(next);
    }
    // The names alone: the label ("Author(s)") is read by no LEAD and would pass for one.
    if (names.length > 0) this.offerAuthor(names.join(", "), LABELLED_TEXT);
  }

  /** A short line of the page's text that credits its author: "By Jane Roe", "（责任编辑：山石）". */
  private offerAuthorLine(text: string): void {
    if (AUTHOR_LABEL.test(text)) this.offerAuthor(text, EDITOR_CREDIT.test(text) ? EDITED_TEXT : LABELLED_TEXT);
    else this.offerCjkCredit(text);
  }

  /** A reporter's credit closing a long paragraph: "…享年74岁。（总台记者 张倩）" (see CLOSING_CREDIT). */
  private offerClosingCredit(text: string): void {
    // Most paragraphs end otherwise: a look at the last character ("）" or ")") before the pattern.
    const c = text.charCodeAt(text.length - 1);
    if (c !== 0xff09 && c !== 41) return;
    const m = CLOSING_CREDIT.exec(text);
    if (m !== null) this.offerAuthor(m[1], LABELLED_TEXT);
  }

  /** A Chinese credit anywhere in `text`: a writer's, else an editor's (ranked after any writer's). */
  private offerCjkCredit(text: string): void {
    // Most lines hold none of the credits' characters: one scan, then the patterns.
    if (!CJK_CREDIT_HINT.test(text)) return;
    const credit = CJK_CREDIT.exec(text);
    if (credit !== null) this.offerAuthor(credit[2], EDITOR_CREDIT.test(credit[1]) ? EDITED_TEXT : LABELLED_TEXT);
    else {
      const reporter = CJK_REPORTER.exec(text);
      if (reporter !== null) this.offerAuthor(reporter[1] ?? reporter[2], LABELLED_TEXT);
      else {
        const poster = CJK_POSTER.exec(text);
        if (poster !== null) this.offerAuthor(poster[1], LABELLED_TEXT);
      }
    }
  }

  private offerAuthor(value: string, rank: number, handle = false, shown = ""): void {
    if (this.authors.length < MAX_CANDIDATES && value.length > 0)
      this.authors.push({ value, rank, handle, at: this.atBlock, shown, names: undefined });
  }

  /**
   * The names of the best-ranked candidate that has any, "; " between them, publishers left out.
   * A name that is the site's own ("British Heart Foundation" in its meta author) gives way to a
   * person named anywhere else on the page, and is taken only when no one else is named (a site
   * named after its author).
   *
   * A site that credits itself, its own one-word name or its host's as its author ("Swoogo" in
   * its meta author, "by whova" under the headline), is its author where no person is named, not
   * even in the page's lines (finishPage reads them first): WCXB's gold names the site there (on
   * WCXB dev's tuning fold, 7 more right authors and 2 more pages given one without gold). Not a
   * masthead ("USA TODAY", "Acme News"), which stays no author.
   */
  private bestAuthor(publishers: readonly string[], host: string): ChosenAuthor | undefined {
    let sitesOwn: ChosenAuthor | undefined;
    let selfCredit: ChosenAuthor | undefined;
    const ranked = byRank(this.authors) as AuthorCandidate[];
    let listing = NONE; // a rank whose bylines name too many people: a listing's teasers
    for (let c = 0; c < ranked.length; c++) {
      const candidate = ranked[c];
      if (candidate.rank === listing) continue;
      const all = this.namesOf(candidate);
      const names = all.filter((name) => !isPublisher(name, publishers, host));
      if (names.length === 0) {
        if (selfCredit === undefined && all.length > 0 && all.every((name) => isSitesOwnName(name, publishers, host)))
          selfCredit = { names: all.join("; "), candidate, selfCredit: true };
        continue;
      }
      if (this.isListing(ranked, c)) {
        listing = candidate.rank;
        this.listing = true;
        continue;
      }
      if (!names.every((name) => isSiteName(name, publishers))) return { names: names.join("; "), candidate, selfCredit: false };
      sitesOwn ??= { names: names.join("; "), candidate, selfCredit: false };
    }
    return sitesOwn ?? selfCredit;
  }

  /** The names a candidate holds (read once per candidate: its value, rank and kind never change); not to be modified. */
  private namesOf(candidate: AuthorCandidate): string[] {
    candidate.names ??= candidate.handle ? handleIn(candidate.value) : authorNames(candidate.value, candidate.rank === LABELLED_TEXT);
    return candidate.names;
  }

  /**
   * Whether the bylines of `ranked[first]`'s rank, from it on, name LISTING_NAMES people or more:
   * a listing's teasers (a blog's index, a magazine's front page), each with its writer, where
   * the page has no one writer. Not when the first is named again: a page's own writer is named
   * in its byline and again (an author box, "more by"), a listing's first teaser's seldom is.
   * Only a guessed byline's ranks (a byline class, an author's link, a labelled line): a forum's
   * marked posters are its thread's.
   */
  private isListing(ranked: readonly AuthorCandidate[], first: number): boolean {
    const rank = ranked[first].rank;
    if (rank !== VISIBLE_GUESS && rank !== LABELLED_TEXT) return false;
    const seen = new Set<string>();
    let own = "";
    let repeated = false;
    for (let c = first; c < ranked.length && ranked[c].rank === rank; c++) {
      if (ranked[c].handle) continue;
      const name = this.namesOf(ranked[c])[0]?.toLowerCase();
      if (name === undefined) continue;
      if (own.length === 0) own = name;
      else if (name === own) repeated = true;
      // People's full names: a forum's posters, one-word handles, are its thread's.
      if (name.includes(" ")) seen.add(name);
    }
    return seen.size >= LISTING_NAMES && !repeated;
  }

  /** Lists take the best rank's entries only, in page order, without duplicates. */
  private addTo(list: "categories" | "tags", value: string, rank: number): void {
    const entry = clean(value);
    if (entry.length === 0 || entry.length > 200) return;
    const rankKey = list === "categories" ? "categoryRank" : "tagRank";
    if (rank > this[rankKey]) return;
    if (rank < this[rankKey]) {
      this[list] = [];
      this[rankKey] = rank;
    }
    const entries = this[list];
    if (entries.length < MAX_LIST && !entries.includes(entry)) entries.push(entry);
  }
}

/**
 * Whether `token` is one of the words of `list` apart by single spaces (`list.split(" ").includes(token)`),
 * without the array: every `<link>` of a page asks (stylesheets, icons, preloads by the dozen).
 */
function hasToken(list: string, token: string): boolean {
  for (let at = list.indexOf(token); at >= 0; at = list.indexOf(token, at + 1)) {
    const end = at + token.length;
    if ((at === 0 || list.charCodeAt(at - 1) === 32) && (end === list.length || list.charCodeAt(end) === 32)) return true;
  }
  return false;
}

function emptyAttributes(): Attributes {
  return { name: "", property: "", content: "", itemprop: "", rel: "", href: "", datetime: "", httpEquiv: "", pubdate: false };
}

/**
 * The block each shown candidate sits in, found in page order: the first block from the last one
 * found that holds the longest line of its text (a byline's "By\nJane Roe\nMarch 4, 2021" sits in
 * "By Jane Roe | March 4, 2021"). A candidate whose text no block holds (hidden, or cut by the
 * segmenter) stays at -1.
 */
function placeShown(candidates: readonly Candidate[], blocks: ReadonlyArray<PageBlock>): void {
  let from = 0;
  for (const c of candidates) {
    if (c.at >= 0 || c.shown.length === 0) continue;
    const key = longestLine(c.shown);
    if (key.length < 2) continue;
    for (let b = from; b < blocks.length; b++) {
      if (blocks[b].text.includes(key)) {
        c.at = from = b;
        break;
      }
    }
  }
}

function longestLine(text: string): string {
  let best = "";
  for (const line of text.split("\n")) {
    // Folding white space never lengthens a line: one no longer than the best cannot beat it.
    if (line.length <= best.length) continue;
    const l = clean(line);
    if (l.length > best.length) best = l;
  }
  return best;
}

/**
 * Where the page's headline may be, as block indexes (-1: none): its first `<h1>`, and the block
 * that repeats the most of its `<title>` (a title being the headline and the site's name, "CDMA
 * closure delayed | Herald Sun"). Either may miss: many a page's first `<h1>` is its site's logo,
 * and many a title only its site's name. Only the page's first 400 blocks are looked at.
 */
function headlinesOf(blocks: ReadonlyArray<PageBlock>, title: string): [number, number] {
  const n = Math.min(blocks.length, 400);
  let h1 = -1;
  for (let b = 0; b < n; b++) {
    if (blocks[b].heading === 1) {
      h1 = b;
      break;
    }
  }
  const t = clean(title);
  let best = -1;
  let bestChars = 5;
  if (t.length > bestChars) {
    for (let b = 0; b < n; b++) {
      const text = blocks[b].text;
      if (text.length <= bestChars || text.length > 300) continue;
      const chars = t.includes(text) ? text.length : text.includes(t) ? t.length : 0;
      if (chars > bestChars) {
        best = b;
        bestChars = chars;
      }
    }
  }
  return [h1, best];
}

/**
 * Path segments of a site's sections that publish nothing with a date of its own: products and
 * shops ("/products/…", "/shop/…", Shopify's "/collections/…"), services, manuals ("/docs/…"),
 * and the category listings of shops and blogs. Their pages carry dates all the same (Yoast's
 * `article:published_time` on WooCommerce products, a docs site's build date, an item's date).
 * On WCXB dev's tuning fold, 61 pages have such a path, none of them with a gold date; winnow
 * dated 12.
 */
const NO_PUBLICATION_SECTION = /\/(?:products?|shop|services?|docs|documentation|categor(?:y|ies)|genre|collections)\//i;
/**
 * A web URL's path, and whether anything follows it: "https://example.org/a/b?c#d" gives "/a/b"
 * and "?c#d". Only http(s): a plain file's URL (file:///home/me/docs/…) is a place on a disk,
 * whose folders say nothing of what the page is.
 */
const PATH_AND_REST = /^https?:\/\/[^/?#]*([^?#]*)(.*)$/i;
/**
 * A topic's, a section's or a tag's listing, its last segment a name, not an id
 * ("/topic/cloud/", "/topics/machine-learning", "/sections/science/"): the latest items filed
 * there, each with its date. Not on a forum (FORUM_PLACE): bbPress and its kind file each thread
 * under "/topic/" ("forum.cookshack.com/topic/catering-tips", "/forums/topic/…", "/support/topic/…"),
 * and others by its id ("/topic/188682-new-case/"). On WCXB dev's tuning fold 5 such listings on
 * 5 sites, none with a gold date; winnow dated all 5.
 */
const TOPIC_LISTING = /\/(?:topics?|sections?|tags?)\/[^/\d][^/]*\/?$/i;
/** A forum's host or section: "forum.example.org", "boards.…", "/forums/", "/support/", "/discussions/". */
const FORUM_PLACE = /[/.](?:forums?|boards?|support|discussions?|community|bbs)[/.]/i;
/** A front page's own file ("/index.php", "/default.aspx"). */
const FRONT_PAGE_FILE = /^\/(?:index|default|home)\.[a-z]+$/i;

/**
 * Whether the URL says that the page publishes nothing dated of its own: a site's front page (a
 * listing of its latest items, or a service's pitch: on WCXB dev's tuning fold 31 pages, one
 * with a gold date, a thread at "/index.php?/topic/…"), or a section of the kinds above. A URL
 * with a query or a fragment is not judged: old sites and forums route to an article there
 * ("/?fArticleId=…", "/category/story.cfm?objectid=…", "/#/post?id=…").
 */
function urlOfNoPublication(url: string): boolean {
  const parts = PATH_AND_REST.exec(url);
  if (parts === null || parts[2].length > 0) return false;
  const path = parts[1];
  return (
    path.length <= 1 ||
    FRONT_PAGE_FILE.test(path) ||
    NO_PUBLICATION_SECTION.test(path) ||
    (TOPIC_LISTING.test(path) && !FORUM_PLACE.test(url))
  );
}

/**
 * Whether a block's `text` is a line that shows a date (one that labels a date, is one, is a
 * line of a few words with a year, or a byline), and not a release's date (in itself or by the
 * short label block `before` it): worth reading as a date.
 */
export function mayBeDateLine(text: string, before: string): boolean {
  // Chiefly for cost: a line of another shape is seldom a date, and chrono-node's parsers were
  // most of what reading every line of the window with a year cost.
  if (text.length > MAX_LABELLED || !YEAR_IN_LINE.test(text)) return false;
  if (!(DATE_LABEL.test(text) || DATE_ONLY.test(text) || isDateLine(text) || BYLINE_START.test(text) || NUMERIC_DATE_TIME.test(text)))
    return false;
  // A product's release date is no sign of a publication, nor its date (on WCXB dev's tuning
  // fold, a store's game pages: 9 of the 50 pages dated without gold).
  return !isReleaseDate(text, before);
}

/**
 * The names a short line of the page's text gives as its author's, read as the collector reads a
 * labelled line ("By Jane Roe", "Written by Ann Lee and Bo Chen"); [] for any other line.
 */
export function bylineNames(text: string): string[] {
  return text.length <= MAX_LABELLED && AUTHOR_LABEL.test(text) ? authorNames(text, true) : [];
}

/** Whether a date line is labelled as a release, in itself or by the short label block before it ("Release Date:"). */
function isReleaseDate(text: string, label: string): boolean {
  if (RELEASE_LABEL.test(text)) return true;
  return label.length > 0 && label.length <= MAX_LABEL_BLOCK && RELEASE_LABEL.test(label);
}

/** A line of a few words with a year: "October 3, 2024", "30th March 2025, 16:26" (read as a date only if it is one). */
function isDateLine(line: string): boolean {
  // A byline's reading time after its date ("December 18, 2025 ・ 3 min read") says nothing more.
  const text = line.replace(READING_TIME, "");
  if (text.length > MAX_DATE_LINE || !YEAR_IN_LINE.test(text)) return false;
  let words = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 32) words++;
  return words <= 5;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function hostOf(url: string): string {
  const start = url.indexOf("://");
  if (start < 0) return "";
  const rest = url.slice(start + 3);
  const end = rest.search(/[/?#:]/);
  return end < 0 ? rest : rest.slice(0, end);
}

function resolve(href: string, base: string): string {
  if (ABSOLUTE_HTTP.test(href)) return href;
  try {
    return new URL(href, base.length > 0 ? base : undefined).href;
  } catch {
    return href;
  }
}
