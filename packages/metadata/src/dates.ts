/**
 * Dates as pages write them, to ISO 8601, without the machine's time zone ever entering:
 * "2021-03-04T10:20:30+01:00" when the page gives a time with its offset ("Z" for UTC/GMT), else
 * the day alone, "2021-03-04" (a time without a zone names no instant, and its day is the page's).
 * The components are read as written (a regular expression for numeric forms, chrono-node's
 * parsed components for prose), never through a Date in local time.
 *
 * A date before 1995 (no web page of the corpus era) or after the upper bound (the capture's
 * date and a day, for time zones ahead of UTC) is no date.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Chrono } from "chrono-node";

/** 1995-01-01T00:00:00Z: before it, a "date" is a founding year or a typo, not a publication. */
export const EARLIEST_DATE_MS = Date.UTC(1995, 0, 1);
/** No upper bound: for a page whose capture date is unknown (HTML on stdin). */
export const NO_BOUND = Number.POSITIVE_INFINITY;
const DAY_MS = 86_400_000;

/**
 * Year, month, day with an optional time and zone: 2021-03-04, 2021-3-4 10:20, 2021/03/04,
 * 2021.03.04, 2021年3月4日, 2021-03-04T10:20:30.123+0100. Searched, not anchored: a candidate may
 * be "Published 2021-03-04". The second separator is the first's "-" (`\2(?<=-)`: a group that took
 * no part matches nothing, so `\2` alone let "2006年12月", a year and a month, read as 2006-01-02).
 */
const YMD =
  /(?<![\d.])((?:19|20)\d{2})(?:(-)|\/|\.|\s*年\s*)(\d{1,2})(?:\2(?<=-)|\/|\.|\s*月\s*)(\d{1,2})(?!\d)(?:\s*日)?(?:(?:T|\s+|\s*日?\s*)(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?(?![\d:]))?/i;
/** The compact ISO forms 20210304 and 20210304T102030Z, alone. */
const COMPACT = /^\s*((?:19|20)\d{2})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})?(Z|[+-]\d{2}:?\d{2})?)?\s*$/i;
/**
 * 04.03.2021, 4/3/2021: day first, as most of the world writes it, unless that cannot be, or the
 * page says it is American (usOrder).
 */
const DMY = /(?<![\d./])(\d{1,2})[./](\d{1,2})[./]((?:19|20)\d{2})(?![\d./])/;
/** A United States time zone's abbreviation: "08:15 PM PST", "10:20 AM ET". */
const US_ZONE = /\b(?:[ECMP][SD]T|[ECMP]T|AK[SD]T|H[SD]T)\b/;
/** `<html lang="en-US">` (WordPress's default, and many American sites'). */
const US_LANG = /^en[-_]us\b/i;
/** A year in prose: chrono-node runs only on strings that hold one. */
const YEAR = /(?:^|\D)((?:19|20)\d{2})(?!\d)/;

/** The languages of chrono-node's strict parsers (no "yesterday", "1 year ago") that are read, English first. */
const LANGUAGES = ["en", "de", "fr", "es", "pt", "it", "nl", "ru", "uk", "sv", "fi", "ja", "zh"] as const;
type Language = (typeof LANGUAGES)[number];
/** Han, kana or hangul: a date in Chinese or Japanese. */
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;

// Each locale is loaded the first time a date needs it (its require is synchronous, as parsing
// is): a run that meets no prose date, or runs with --no-metadata, never loads chrono-node.
const require = createRequire(import.meta.url);
const loaded = new Map<Language, Chrono>();
function parser(language: Language): Chrono {
  let chrono = loaded.get(language);
  if (chrono === undefined) {
    chrono = (require(`chrono-node/${language}`) as { strict: Chrono }).strict;
    loaded.set(language, chrono);
  }
  return chrono;
}

/**
 * Whether chrono-node's `language` can find a whole day in `value`. Its strict parsers take a
 * day with its month only from a month name of their language (MONTH_DICTIONARY, which their
 * patterns are built from) or from numbers with separators ("2021 03 04", "4.3.2021"): a
 * string that holds neither is never parsed, and that language's parsers are never loaded for
 * it. On pages that declare no language, most prose candidates went through all 13 languages,
 * two thirds of chrono-node's CPU on CleanEval's pages; the outcome is the same (a parse that
 * finds no month finds no day). A chrono-node without the dictionary where it is read here
 * leaves every language to be tried, as before.
 */
function mayHoldDay(value: string, language: Language): boolean {
  // Chinese and Japanese write days with 年, 月, 日 and numbers, not month names. Every strict
  // parser of theirs that reads a whole day from words needs a Han character (月, 日, 曜, 天,
  // 星期: their patterns hold no kana a date needs); without one, the only days with a written
  // year they read are numbers apart, the year first and a separator right after it:
  // ISOFormatParser's "2021-03-04" (after a non-word character or at the start, its left
  // boundary) and JPSlashDateFormatParser's "2021/3/4" (anywhere; its separators are "/", "|"
  // and the fullwidth "／"). On CleanEval's pages, 36 parses of strings without Han went through
  // both and none found a day, and on WCXB dev 2 ("December 18, 2025 ・ 3 min read", its dot
  // being katakana's); each of the two locales cost its load and the first compiling of its
  // patterns for them.
  if (language === "zh" || language === "ja") return HAN.test(value) || YEAR_THEN_SEPARATOR.test(value);
  if (NUMBERS_APART.test(value)) return true;
  const names = monthNames(language);
  return names === null || names.test(value);
}

/**
 * What chrono's numeric date parsers need for a whole day, a little wider than their patterns: a
 * day, a month and a year apart by "/", "." or "-" (SlashDateFormatParser; without its year the
 * year is only implied), or a year, a month and a day apart by those or spaces (ISOFormatParser,
 * the YearMonthDay parsers). Its other strict parsers find a day only from a month name, or
 * relative to the reference ("3 days ago"), which never holds the year written in the string.
 */
const NUMBERS_APART = /(?:^|\D)[0-3]?\d[/.-][0-3]?\d[/.-]\d{2}|\d{4}[\s/.-]+\d{1,2}[\s/.-]+\d{1,2}/;
/** Han: what chrono-node's Chinese and Japanese parsers need to read a day from words. */
const HAN = /[\u3400-\u9fff]/;
/** A year and the separator of the numeric dates that chrono-node's Chinese and Japanese parsers read without Han. */
const YEAR_THEN_SEPARATOR = /(?:^|\W)\d{4}-|\d{4}[/|／]/;

const monthNameTests = new Map<Language, RegExp | null>();
/** The month names of a chrono-node locale as one case-insensitive test (its patterns' flags), or null when they cannot be read. */
function monthNames(language: Language): RegExp | null {
  let test = monthNameTests.get(language);
  if (test === undefined) {
    test = null;
    try {
      // The locale's constants are not in chrono-node's exports map: read from its own folder.
      const root = dirname(require.resolve("chrono-node"));
      const constants = require(join(root, "locales", language, "constants.js")) as Record<string, unknown>;
      const names = new Set<string>();
      for (const key of ["MONTH_DICTIONARY", "FULL_MONTH_NAME_DICTIONARY"]) {
        const dictionary = constants[key];
        if (dictionary !== null && typeof dictionary === "object") for (const name of Object.keys(dictionary)) names.add(name);
      }
      if (names.size > 0) test = new RegExp([...names].map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "i");
    } catch {
      test = null;
    }
    monthNameTests.set(language, test);
  }
  return test;
}

/**
 * The languages to try, in order: English, then the page's declared language; a string with CJK
 * characters tries Chinese and Japanese; a page that declares none (or one chrono-node does not
 * read) tries them all.
 */
function languagesFor(declared: string, cjk: boolean): readonly Language[] {
  if (cjk) return CJK_FIRST;
  const code = declared.slice(0, 2).toLowerCase();
  return DECLARED_FIRST.get(code) ?? LANGUAGES;
}
const CJK_FIRST: readonly Language[] = ["zh", "ja", "en"];
/** English, then the declared language, per declared code: one list each, not one per string read. */
const DECLARED_FIRST = new Map<string, readonly Language[]>(LANGUAGES.map((code) => [code, code === "en" ? ["en"] : ["en", code]]));
/** A fixed reference: chrono implies missing parts from it, and those parts are never used. */
const REFERENCE = { instant: new Date(Date.UTC(2000, 0, 1)), timezone: 0 };
/** chrono-node's tag on a result counted from the reference ("in 3 days", "2 hours ago", "3 days after May 4, 2021"): no day the string writes. */
const RELATIVE_TAG = "result/relativeDate";

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

function validDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** The ISO text of a day, with the time when its offset is known (minutes east of UTC, "Z" written as such). */
function iso(
  y: number,
  m: number,
  d: number,
  time: { h: number; min: number; s: number; offset: string } | undefined,
  latest: number,
): string | undefined {
  if (!validDay(y, m, d)) return undefined;
  const dayStart = Date.UTC(y, m - 1, d);
  if (dayStart < EARLIEST_DATE_MS || dayStart > latest + DAY_MS) return undefined;
  const day = `${y}-${pad(m)}-${pad(d)}`;
  if (time === undefined) return day;
  if (time.h > 23 || time.min > 59 || time.s > 59) return undefined;
  return `${day}T${pad(time.h)}:${pad(time.min)}:${pad(time.s)}${time.offset}`;
}

/** "+0100", "+01", "-05:00", "Z", "GMT" as "+01:00" or "Z". */
function zoneText(zone: string): string {
  const upper = zone.toUpperCase();
  if (upper === "Z" || upper === "UTC" || upper === "GMT") return "Z";
  const digits = zone.replace(":", "");
  return `${digits.slice(0, 3)}:${digits.length >= 5 ? digits.slice(3, 5) : "00"}`;
}

function offsetText(minutes: number): string {
  if (minutes === 0) return "Z";
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * The date in `value` as ISO 8601, or undefined when there is none, it is before 1995 or after
 * `latest` (milliseconds since the epoch: the capture's date; a day more is allowed for zones).
 * `declaredLang` (the page's `<html lang>`) says which of chrono-node's languages to try after
 * English; without it, all of them.
 */
export function normaliseDate(value: string, latest: number = NO_BOUND, declaredLang = ""): string | undefined {
  if (value.length < 4 || value.length > 300) return undefined;
  const compact = COMPACT.exec(value);
  if (compact !== null) {
    const [, y, m, d, hh, mm, ss, zone] = compact;
    const time =
      hh !== undefined && zone !== undefined ? { h: Number(hh), min: Number(mm), s: Number(ss ?? 0), offset: zoneText(zone) } : undefined;
    return iso(Number(y), Number(m), Number(d), time, latest);
  }
  const ymd = YMD.exec(value);
  if (ymd !== null) {
    const [, y, , m, d, hh, mm, ss, zone] = ymd;
    const time =
      hh !== undefined && zone !== undefined ? { h: Number(hh), min: Number(mm), s: Number(ss ?? 0), offset: zoneText(zone) } : undefined;
    const out = iso(Number(y), Number(m), Number(d), time, latest);
    if (out === undefined) return undefined;
    // A time with its zone is an instant: it must not be after the bound either.
    if (time !== undefined && Date.parse(out) > latest + DAY_MS) return undefined;
    return out;
  }
  const dmy = DMY.exec(value);
  if (dmy !== null) {
    let d = Number(dmy[1]);
    let m = Number(dmy[2]);
    // 03/24/2021 cannot be day first: the American order is the only reading. Month first too
    // where the page says it is American and slashes the numbers (dots are no American order).
    if (d <= 12 && (m > 12 || (value.charCodeAt(dmy.index + dmy[1].length) === 47 && usOrder(value, declaredLang)))) [d, m] = [m, d];
    return iso(Number(dmy[3]), m, d, undefined, latest);
  }
  const year = YEAR.exec(value);
  return year === null ? undefined : proseDate(value, year[1], latest, declaredLang);
}

/** Whether a page writes its dates month first: a US time zone beside the date, or an American `<html lang>`. */
function usOrder(value: string, declaredLang: string): boolean {
  return US_LANG.test(declaredLang) || US_ZONE.test(value);
}

/** A date in words, in any language chrono-node reads: the first parse that names a whole day with its year written out. */
function proseDate(value: string, year: string, latest: number, declaredLang: string): string | undefined {
  // A whole day in words needs its day beside the year: in every script but Han and kana that
  // is a number of one or two digits ("4 March 2021", "March 4th, 2021"). Without one, chrono's
  // parsers (up to 13 languages on a page that declares none, the costliest step of a page's
  // metadata) cannot find a day: a year range ("(1908-1985)"), a copyright line, an issue
  // number. Skipping them loses only days written as words ("the first of May 2021").
  const cjk = CJK.test(value);
  if (!cjk && !hasDayNumber(value)) return undefined;
  for (const language of languagesFor(declaredLang, cjk)) {
    if (!mayHoldDay(value, language)) continue;
    for (const result of parser(language).parse(value, REFERENCE)) {
      const start = result.start;
      if (!start.isCertain("day") || !start.isCertain("month") || !start.isCertain("year")) continue;
      // "1 year ago" is certain for chrono: a written year is what makes a date here.
      if (!result.text.includes(year) || start.get("year") !== Number(year)) continue;
      // A relative expression ("in 2000 minutes") is as certain in every part, counted from the
      // reference day (2000-01-01): its number can pass for that year. Checked last: tags() copies.
      if (start.tags().has(RELATIVE_TAG)) continue;
      const y = start.get("year") as number;
      const m = start.get("month") as number;
      const d = start.get("day") as number;
      const zoned = start.isCertain("hour") && start.isCertain("timezoneOffset");
      const time = zoned
        ? {
            h: start.get("hour") as number,
            min: (start.get("minute") as number | null) ?? 0,
            s: (start.get("second") as number | null) ?? 0,
            offset: offsetText(start.get("timezoneOffset") as number),
          }
        : undefined;
      const out = iso(y, m, d, time, latest);
      if (out !== undefined && (time === undefined || Date.parse(out) <= latest + DAY_MS)) return out;
      return undefined;
    }
  }
  return undefined;
}

/** Whether `value` holds a number of one or two digits (a day), not only longer ones (years, counts). */
function hasDayNumber(value: string): boolean {
  let run = 0;
  for (let i = 0; i <= value.length; i++) {
    const c = i < value.length ? value.charCodeAt(i) : 0;
    if (c >= 48 && c <= 57) run++;
    else if (run > 0) {
      if (run <= 2) return true;
      run = 0;
    }
  }
  return false;
}

/** What each date string of one page read as (null: no date), under its white space folded: see readDateOnce. */
export type DateReadings = Map<string, string | null>;
const SPACES = /\s+/g;

/**
 * What `value` reads as (normaliseDate of it, its white space folded), with the page's `latest`
 * and `declaredLang`, read once per page: `readings` (the page's own) keeps each string's reading,
 * so a string that the page offers again (a byline's text that is also a date candidate, a
 * footer that repeats, the dateline that the collector read and chooseByMainText reads again) is
 * parsed once.
 */
export function readDateOnce(readings: DateReadings, value: string, latest: number, declaredLang: string): string | undefined {
  const text = value.replace(SPACES, " ").trim();
  let iso = readings.get(text);
  if (iso === undefined) {
    iso = normaliseDate(text, latest, declaredLang) ?? null;
    readings.set(text, iso);
  }
  return iso ?? undefined;
}

/** A date in a URL path: /2021/03/04/, /2021/3/4/, /2021-03-04, /20210304/, as a day. */
const URL_DATE = /\/((?:19|20)\d{2})(?:[/-](\d{1,2})[/-](\d{1,2})|(\d{2})(\d{2}))(?:[/_.-]|$)/;

export function dateInUrl(url: string, latest: number = NO_BOUND): string | undefined {
  const match = URL_DATE.exec(url);
  if (match === null) return undefined;
  return iso(Number(match[1]), Number(match[2] ?? match[4]), Number(match[3] ?? match[5]), undefined, latest);
}
