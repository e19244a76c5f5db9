/**
 * A page's date and author chosen again once the blocks of its main text are known (after the
 * model has scored them), by where the page shows them against that text: the one signal a
 * content extractor has and a metadata library does not. A page's own date and byline sit at the
 * head of its main text (headline, byline, dateline) or near it; a teaser's, a sidebar's, a
 * comment's or a footer's sit elsewhere.
 *
 * Measured on WCXB dev's tuning fold (fold 0), the model's kept blocks as clean keeps them
 * (experiments/results/2026-11-27-meta-main-text.md): each rule below was kept only where it
 * helped there; a byline at the head of the main text winning over one elsewhere (as opposed to
 * an author named only elsewhere being dropped) gave nothing and is not a rule.
 */
import { bylineNames, DATE_LABEL, mayBeDateLine } from "./collector.js";
import { readDateOnce } from "./dates.js";
import { isPublisher } from "./names.js";
import type { PageMetadata, ShownCandidates } from "./types.js";

/**
 * The head of the main text, as blocks before and after its first kept block: the model keeps a
 * page's headline and often its dateline, so the date shown there sits within a block or two (on
 * the tuning fold: a window of 2 and 2 gave 4 right days more than 3 and 3 did and none fewer).
 */
const HEAD_BEFORE = 2;
const HEAD_AFTER = 2;
/**
 * How far beyond the main text's first and last kept blocks a shown date still belongs to it
 * (its dateline above the headline, a "Published …" line under the text).
 */
const DATE_MARGIN = 2;
/**
 * The same for a shown author: an author box above the headline or below the text, a few blocks
 * away (on the tuning fold, a byline box 7 blocks above the first kept block and an "Author(s)"
 * list 5 blocks below the last were right; the names dropped sat 9 or more blocks away).
 */
const AUTHOR_MARGIN = 8;
/**
 * A line that says when a page was changed, not written ("Last updated: …", "Updated on …"), or a
 * forum's line about a user or the last post: the gold takes the markup's publication date over
 * it as often as not (on the tuning fold, taking it turned 7 right days wrong and 7 wrong right).
 */
const NOT_PUBLISHED_LABEL =
  /updated|modified|aktualisiert|mis à jour|actualizado|aggiornato|bijgewerkt|обновлено|更新|last post|registered|joined/i;
/** A date and time written with a UTC offset ("Z", "+00:00"): a server's clock, not the page's own day. */
const UTC_TIME = /T.*(?:Z|[+-]00:?00)$/;
const DAY_MS = 86_400_000;

/**
 * The page's metadata with its `date` and `author` decided again by where the page shows them
 * against its main text: `kept`, the indexes of the blocks kept as main text (ascending), and
 * `texts`, every block's text. Only `date` and `author` may change, and a page with no kept block
 * keeps finish()'s choice. `metadata` is not modified: a changed page gets a copy.
 *
 * - The date shown at the head of the main text (a shown date candidate, or a line that reads as
 *   a date, in the blocks around the first kept one) replaces the chosen date when their days
 *   differ: a CMS's stamp in the markup, or a teaser's date ranked first, gives way to the
 *   dateline under the headline. Not an update's line (see NOT_PUBLISHED_LABEL), not where the
 *   two days are one apart and the chosen date carries the page's own offset (a time zone, not
 *   another day), nor where the two read as each other with day and month swapped ("10/12/2023").
 *   On a page finish() left undated (its date line past the lines the collector reads, or not
 *   beside what it took for the headline), that date dates it, else a labelled date at the main
 *   text's end ("发表于 …", "Posted on …": a post's footer); not a page whose URL says it
 *   publishes nothing dated (a front page: its first teaser's date is not its own). On the
 *   tuning folds: WCXB dev 1 more right day, none more without gold; Chinese-WCE 6 more right.
 * - A date chosen from what the page shows (not its markup or URL) where the page shows no date
 *   in or beside its main text is dropped: a listing's teasers, a sidebar's or a footer's dates.
 * - An author chosen from what the page shows where the page shows no author's name in or near
 *   its main text is dropped: a sidebar's "by …", a related item's writer, a contact box.
 */
export function chooseByMainText(
  metadata: PageMetadata,
  shown: ShownCandidates,
  kept: readonly number[],
  texts: readonly string[],
): PageMetadata {
  if (kept.length === 0) return metadata;
  const first = kept[0];
  const last = kept[kept.length - 1];
  let date = metadata.date;
  let author = metadata.author;
  if (date !== undefined) {
    const head = headDate(shown, first, texts);
    if (head !== undefined && replacesDate(date, head)) date = head;
    else if (shown.dateBlock >= 0 && !shown.dates.some((d) => d.block >= first - DATE_MARGIN && d.block <= last + DATE_MARGIN))
      date = undefined;
  }
  if (author !== undefined && shown.authorBlock >= 0) {
    if (!shown.authors.some((a) => a.block >= first - AUTHOR_MARGIN && a.block <= last + AUTHOR_MARGIN)) author = undefined;
  }
  if (date === undefined && metadata.date === undefined && !shown.noPublicationUrl)
    date = headDate(shown, first, texts) ?? tailDate(shown, last, texts);
  if (author === undefined && metadata.author === undefined) author = headByline(shown, first, texts);
  if (date === metadata.date && author === metadata.author) return metadata;
  const out: PageMetadata = { ...metadata };
  if (date === undefined) delete out.date;
  else out.date = date;
  if (author === undefined) delete out.author;
  else out.author = author;
  return out;
}

/**
 * The date shown at the main text's head, as the collector read it (or reads it, in the page's
 * readings: a string the collector read is not parsed again): in the blocks just under its
 * first kept block (most often the headline), else just above it, else in that block itself (a
 * dateline kept as the first block; a headline's own year or date, "Best laptops 2026", last).
 * Nearest first: a sidebar's date above the headline loses to the dateline under it (on the
 * tuning fold this order and the page's order gave the same days).
 */
function headDate(shown: ShownCandidates, first: number, texts: readonly string[]): string | undefined {
  for (let k = 1; k <= HEAD_AFTER + HEAD_BEFORE + 1; k++) {
    const b = k <= HEAD_AFTER ? first + k : k <= HEAD_AFTER + HEAD_BEFORE ? first - (k - HEAD_AFTER) : first;
    if (b < 0 || b >= texts.length) continue;
    const iso = dateShownIn(shown, b, texts);
    if (iso !== undefined) return iso;
  }
  return undefined;
}

/**
 * A labelled date at the main text's end (its last kept block and the two after it): a blog
 * post's or a forum post's footer, "发表于 2004年12月27日 12:40", "Posted on April 13, 2023".
 */
function tailDate(shown: ShownCandidates, last: number, texts: readonly string[]): string | undefined {
  const end = Math.min(texts.length - 1, last + DATE_MARGIN);
  for (let b = last; b <= end; b++) {
    if (!DATE_LABEL.test(texts[b])) continue;
    const iso = dateShownIn(shown, b, texts);
    if (iso !== undefined) return iso;
  }
  return undefined;
}

/** The names a byline at the main text's head gives (nearest first, as headDate), publishers left out. */
function headByline(shown: ShownCandidates, first: number, texts: readonly string[]): string | undefined {
  for (let k = 1; k <= HEAD_AFTER + HEAD_BEFORE + 1; k++) {
    const b = k <= HEAD_AFTER ? first + k : k <= HEAD_AFTER + HEAD_BEFORE ? first - (k - HEAD_AFTER) : first;
    if (b < 0 || b >= texts.length) continue;
    const names = bylineNames(texts[b]).filter((name) => !isPublisher(name, shown.publishers, shown.host));
    if (names.length > 0) return names.join("; ");
  }
  return undefined;
}

/** The date block `b` shows (a shown date candidate there, else its text as a date line), not an update's. */
function dateShownIn(shown: ShownCandidates, b: number, texts: readonly string[]): string | undefined {
  const text = texts[b];
  if (NOT_PUBLISHED_LABEL.test(text)) return undefined;
  for (const d of shown.dates) {
    if (d.block !== b || NOT_PUBLISHED_LABEL.test(d.value)) continue;
    const iso = readDateOnce(shown.readings, d.value, shown.bound, shown.lang);
    if (iso !== undefined) return iso;
  }
  return mayBeDateLine(text, b > 0 ? texts[b - 1] : "") ? readDateOnce(shown.readings, text, shown.bound, shown.lang) : undefined;
}

/** Whether the date shown at the main text's head (`head`) replaces the chosen one (`chosen`). */
function replacesDate(chosen: string, head: string): boolean {
  const day = chosen.slice(0, 10);
  const headDay = head.slice(0, 10);
  if (day === headDay) return false;
  // One day apart: a time zone where the chosen date carries the page's own offset.
  if (Math.abs(Date.parse(day) - Date.parse(headDay)) <= DAY_MS && chosen.length > 10 && !UTC_TIME.test(chosen)) return false;
  // Day and month swapped: one numeric date read two ways ("10/12/2023").
  const swapped =
    day.slice(0, 4) === headDay.slice(0, 4) && day.slice(5, 7) === headDay.slice(8, 10) && day.slice(8, 10) === headDay.slice(5, 7);
  return !swapped;
}
