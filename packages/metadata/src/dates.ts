/**
 * Dates as pages write them, to ISO 8601: "2021-03-04" when only a day is given, else
 * "2021-03-04T10:20:30+01:00" (the offset as written, "Z" for UTC; no offset when none was given).
 * A date before 1995 (no web page of the corpus era) or after `latest` is no date.
 */

/** 1995-01-01T00:00:00Z: before it, a "date" is a founding year or a typo, not a publication. */
export const EARLIEST_DATE_MS = Date.UTC(1995, 0, 1);

const ISO = /^\s*(\d{4})-?(\d{2})-?(\d{2})(?:[T ](\d{2}):?(\d{2})(?::?(\d{2})(?:[.,]\d+)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?/i;
/** 4 March 2021, March 4, 2021, 4. März 2021 are left to Date.parse only for English month names. */
const DAY_MONTH_YEAR = /^\s*(\d{1,2})[./](\d{1,2})[./](\d{4})\b/;
const HAS_TIME = /\d:\d\d/;

const pad = (n: number, width = 2): string => String(n).padStart(width, "0");

function inRange(ms: number, latest: number): boolean {
  return Number.isFinite(ms) && ms >= EARLIEST_DATE_MS && ms <= latest;
}

function validDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/**
 * The date in `value` as ISO 8601, or undefined when there is none, it is before 1995 or after
 * `latest` (milliseconds since the epoch; a day later than the capture or run, for time zones).
 */
export function normaliseDate(value: string, latest: number): string | undefined {
  if (value.length === 0 || value.length > 80) return undefined;
  const iso = ISO.exec(value);
  if (iso !== null) {
    const [, ys, ms, ds, hh, mm, ss, zone] = iso;
    const y = Number(ys),
      m = Number(ms),
      d = Number(ds);
    if (!validDay(y, m, d)) return undefined;
    if (hh === undefined) return inRange(Date.UTC(y, m - 1, d), latest) ? `${ys}-${ms}-${ds}` : undefined;
    const h = Number(hh),
      min = Number(mm),
      s = ss === undefined ? 0 : Number(ss);
    if (h > 23 || min > 59 || s > 59) return undefined;
    const offset = zone === undefined ? "" : zone.toUpperCase() === "Z" ? "Z" : zoneText(zone);
    const when = `${ys}-${ms}-${ds}T${hh}:${mm}:${pad(s)}${offset}`;
    return inRange(Date.parse(offset === "" ? `${when}Z` : when), latest) ? when : undefined;
  }
  const dmy = DAY_MONTH_YEAR.exec(value);
  if (dmy !== null) {
    // 04.03.2021 and 04/03/2021: day first, as most of the world writes it (and as the month
    // cannot be above 12, an American 03/24/2021 is no date rather than a wrong one).
    const d = Number(dmy[1]),
      m = Number(dmy[2]),
      y = Number(dmy[3]);
    if (!validDay(y, m, d)) return undefined;
    return inRange(Date.UTC(y, m - 1, d), latest) ? `${y}-${pad(m)}-${pad(d)}` : undefined;
  }
  // RFC 2822 and English prose dates ("Tue, 04 Mar 2021 10:00:00 GMT", "March 4, 2021").
  if (!/[a-z]{3}/i.test(value) || !/\d{4}/.test(value)) return undefined;
  const parsed = Date.parse(value);
  if (!inRange(parsed, latest)) return undefined;
  const t = new Date(parsed);
  if (!HAS_TIME.test(value)) return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}`;
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}T${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}:${pad(t.getUTCSeconds())}Z`;
}

function zoneText(zone: string): string {
  const digits = zone.replace(":", "");
  return `${digits.slice(0, 3)}:${digits.length >= 5 ? digits.slice(3, 5) : "00"}`;
}

/** A date in a URL path: /2021/03/04/ or /2021-03-04, as ISO 8601. */
const URL_DATE = /\/((?:19|20)\d{2})[/-](\d{1,2})[/-](\d{1,2})(?:[/-]|$)/;

export function dateInUrl(url: string, latest: number): string | undefined {
  const match = URL_DATE.exec(url);
  if (match === null) return undefined;
  return normaliseDate(`${match[1]}-${pad(Number(match[2]))}-${pad(Number(match[3]))}`, latest);
}
