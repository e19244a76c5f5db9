/**
 * Author names out of what pages write where a name should be: "By Jane Doe and John Roe",
 * "Jane Doe, John Roe, and Max Muster", "via scvalex 1 year ago | caches | 12 comments". A
 * name is a few words, no sentence, no date, no count; a publisher (the site's own name) is no
 * author. What is not a name is dropped, never guessed into one.
 */

/** "By", "von", "Par", "Written by", "Posted by", "Author:" before the names. */
const LEAD_WORDS =
  "(?:(?:written|posted|published|reported|story|text|words|photos?|reviewed|edited|compiled|updated|created)\\s+by|by|via|from|von|vom|par|door|di|da|por|av|af|de|autor(?:in)?|auteur|authors?|writer|byline|作者|编辑|編輯|责任编辑|记者|記者|文)";
const LEAD = new RegExp(`^${LEAD_WORDS}(?:\\s*[:：]\\s*|\\s+)`, "i");
const LEAD_ONLY = new RegExp(`^${LEAD_WORDS}\\s*[:：]?$`, "i");
/** "16 December 2025 by Sam O'Brien": the names follow the last "by". */
const BY_INSIDE = /\s(?:by|von|par|por|door)\s+(?=\S)/gi;
/** Where a byline stops naming people: a separator, a date or time, a count. */
const END = /\s[|•·–—]\s?|\s-\s|\s*[|•·]|\s+(?:on|at|am|le|el|il|em|in|posted|published|updated)\s|\s+\S*\d/i;
/** Two parts of a byline that belong together across an element's edge ("By" + "Jane Doe"). */
const CONNECTOR = /^(?:and|und|et|y|e|&|,|;)$/i;
const MONTH = /^(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?\s?)+$/i;
/**
 * A month's or a weekday's name, whole or cut short ("January", "Dec.", "Monday"), after a name
 * where a byline's date begins. Not "May" (Theresa May), nor MONTH's looser prefixes ("Maria").
 */
const DATE_WORD =
  /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|(?:mon|tues|wednes|thurs|fri|satur|sun)day|mon|tue|wed|thu|fri|sat)\.?$/i;
/** A sentence's last word ("privacy."); an initial ("J.") or a title ("Dr.") is short. */
const SENTENCE_END = /\p{Ll}{3,}\.$/u;
/** Where a name must begin with a capital: a line of the page's text, not a marked byline. */
const CAPITALISED = /^[\p{Lu}\p{Lo}]/u;
/** What follows a byline's one word when it reads as a sentence's rest: lowercase words only ("in touch"). */
const SENTENCE_REST = /^\s+\p{Ll}+(?:\s+\p{Ll}+)*\s*$/u;
/** Between two names. */
const BETWEEN = /\s*(?:,\s*(?:and|und|et|y|e|en|og|och|i)\s|;|,|\s&\s|\s(?:and|und|et|y|e|en|og|och|i)\s)\s*/i;
/** Words that say a part is no name (a count, a role line, a call to action). */
const NOT_A_NAME =
  /[，。？！：；、“”]|\b(?:ago|comments?|min(?:ute)?s?|read|share|follow|updated?|published|posted|submitted|contributors?|staff writer|newsletter|subscribe|view|profile|more|articles?|posts?|all|home|www|http|click|here)\b|@|\/|[0-9]|[?!:=<>{}[\]"“”]/i;
/** Alone, these name no one. */
const NO_NAME =
  /^(?:by|von|par|in|on|at|of|to|the|and|for|with|author|autor|auteur|information|info|details|bio|biography|staff|admin|administrator|webmaster|anonymous|unknown|editor|editors|guest|user|team|redaktion|rédaction)$/i;
/**
 * A listing's filters, "By Category", "By Use Case", "Shop by Type": what such a "By" line ends
 * with is a kind of thing, never a person's name (surnames such as Price or Brand left out).
 */
const FACET =
  /\s?\b(?:categor(?:y|ies)|types?|industry|industries|size|location|topics?|use case|modality|stage|technolog(?:y|ies)|date|manufacturer|school|department|region|products?|solutions?|services?|roles?|audience|platforms?|format|level|country|state|city|goals?|features?|integrations?)$/i;
/** A word of a name typed in lowercase: letters only ("thurmon", "lennys"). */
const LOWERCASE_NAME_WORD = /^\p{Ll}{2,}$/u;
/** Words of a sentence or a call to action, never of a name typed in lowercase ("about the author", "leave a reply"). */
const FUNCTION_WORD =
  /^(?:a|an|the|of|and|or|to|in|on|at|by|for|with|from|about|into|is|are|was|be|this|that|these|our|your|my|his|her|its|their|we|you|it|leave|reply|see|go|back|next|previous|top|new|latest|recent|popular|related|written|edited|search|menu|login|sign|up|out)$/;
/** A template's unfilled placeholder ("page.head.extra.author"): a dotted lowercase path, no name ("J.R.R.Tolkien" is one). */
const PLACEHOLDER = /^[a-z_][\w-]*(?:\.[a-z_][\w-]*){2,}$/;
/** Lowercase words that may sit inside a name ("Ludwig van Beethoven", "Oscar de la Hoya"). */
const PARTICLE = /^(?:van|von|der|den|de|del|della|da|di|du|la|le|bin|ibn|al|el|ter|ten|y|dos|das)$/;
const SPACES = /\s+/g;
const HAN = /\p{Script=Han}/u;
const MAX_NAMES = 10;

/**
 * Suffixes after a comma that qualify the name before them rather than name another person:
 * "Doris Munoz-Mantilla, MD", "Andrew Huberman, PhD".
 */
const CREDENTIAL = /^(?:m\.?d\.?|ph\.?d\.?|jr\.?|sr\.?|r\.?n\.?|do|mba|msc|bsc|esq\.?|rd|ma|ms|bs|ba|dds|dvm|facp|faclm|[A-Z]{2,6})$/i;

/**
 * Words of a job, not a name: after a name, "Jane Roe, Staff Writer", "Paul Frew, Home and Digital
 * Security Expert", "Ben Johnson, Sr. Director of Operations, Atlas Van Lines" say who the person
 * is, and what follows is theirs (their employer), not another author's. A role ends its part or
 * is followed by "of"/"for"/"at": "Attorney Richard A. Boswell" is a name with its title.
 */
const ROLE =
  /\b(?:writer|editor|reporter|correspondent|columnist|contributor|expert|director|founder|co-founder|ceo|cto|cfo|manager|specialist|analyst|professor|officer|president|chief|coach|consultant|journalist|photographer|producer|strategist|engineer|scientist|researcher|attorney|lawyer|physician|dietitian|nutritionist|therapist|instructor|teacher|intern|fellow|student)s?(?:\.?$|\s+(?:of|for|at)\s)/i;

/** One candidate part: the name it holds, or "" when it holds none. */
function nameIn(part: string, marked = false): string {
  const name = part.replace(/^[\s'’.,:;·–—-]+|[\s'’,:;·–—-]+$/g, "");
  if (
    name.length < 2 ||
    name.length > 60 ||
    NO_NAME.test(name) ||
    NOT_A_NAME.test(name) ||
    MONTH.test(name) ||
    SENTENCE_END.test(name) ||
    PLACEHOLDER.test(name)
  ) {
    return "";
  }
  const words = name.split(" ");
  if (words.length > 5 || FACET.test(name)) return "";
  // "By Ray Chesterton January 18, 2008": the date's month is no part of the name.
  if (words.length >= 3 && DATE_WORD.test(words[words.length - 1])) return nameIn(words.slice(0, -1).join(" "), marked);
  // Chinese and Japanese names are a few characters; more is a phrase.
  if (HAN.test(name) && name.replace(SPACES, "").length > 8) return "";
  // A sentence has lowercase words; a name has at most a particle (usernames are one word).
  if (words.length > 1) {
    let lower = 0;
    // "By the Lavazza Team": a team's credit begins with a lowercase article.
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      if (w[0] !== w[0].toUpperCase() && !PARTICLE.test(w) && !(i === 0 && w === "the")) lower++;
    }
    // A name the markup gives as the author may be written as its owner typed it ("annette
    // thurmon"): two or three lowercase words, none a sentence's word.
    if (
      lower > 0 &&
      !(marked && lower === words.length && words.length <= 3 && words.every((w) => LOWERCASE_NAME_WORD.test(w) && !FUNCTION_WORD.test(w)))
    )
      return "";
  }
  return name;
}

/**
 * The names in `text` (a byline, a meta value, a JSON-LD name), in order and without repeats;
 * [] when it holds none. `whole`: the text is a line of the page ("By Jane Roe"), not a marked
 * byline: it must be names to its end, or names then a date or a separator, capitalised then
 * ("By using this site, you agree" names no one; "by ibby" does).
 */
export function authorNames(text: string, whole = false): string[] {
  let s = joinLines(text);
  if (s.length > 300 && !whole) {
    // An author box: the name on its first line, then the bio ("Lauren Vetter | Lauren Vetter is
    // a growth-focused marketing professional …"); a long text without such a line names no one.
    // The first line must be a displayed name, each word capitalised: a post's text wrapped in an
    // author class ("Koennten Frauen bitte … Posted by in") is none.
    const line = s.indexOf(" | ");
    const first = line > 0 && line <= 60 ? s.slice(0, line) : "";
    // ("Laptop", a post's heading, is one word: a person's displayed name has two to four).
    const words = first.split(" ");
    s = words.length >= 2 && words.length <= 4 && words.every((w) => CAPITALISED.test(w)) ? first : "";
  }
  if (s.length === 0 || s.length > 300) return [];
  for (let i = 0; i < 2; i++) s = s.replace(LEAD, "");
  let by: RegExpExecArray | null = null;
  for (let m = BY_INSIDE.exec(s); m !== null; m = BY_INSIDE.exec(s)) by = m;
  BY_INSIDE.lastIndex = 0;
  if (by !== null) s = s.slice(by.index + by[0].length);
  const end = END.exec(s);
  let cut = false;
  if (end !== null && end.index > 0) {
    // A line may go on with a date or after a separator ("By Jon Foster - 2025-09-13"), not with words.
    if (whole && !/\d|^\s*[|•·–—-]/.test(s.slice(end.index))) return [];
    // One capitalised word, then a preposition and lowercase words only: a call to action in a
    // byline-classed box ("Get in touch"), not a name and a category ("Jane Roe in Politics",
    // a handle's "ibby in news"). On the eight sets, only WCXB dev's "Get" changes.
    if (!s.slice(0, end.index).includes(" ") && CAPITALISED.test(s) && SENTENCE_REST.test(s.slice(end.index))) return [];
    s = s.slice(0, end.index);
    cut = true;
    // "by Faded_Hazel November 25, 2016": a month's name before the day is the date's, after a
    // name of one word too (nameIn drops it only after two, "Ann March" being a name).
    const last = s.lastIndexOf(" ");
    if (last > 0 && /\d/.test(end[0]) && DATE_WORD.test(s.slice(last + 1))) s = s.slice(0, last);
  }
  const out: string[] = [];
  for (const part of s.split(BETWEEN)) {
    if (CREDENTIAL.test(part.trim().replace(/\.+$/, "")) && out.length > 0) continue;
    // A role alone is left to nameIn: a credit such as "Our Editors" is the page's byline.
    if (out.length > 0 && ROLE.test(part.trim())) break;
    const name = nameIn(part.replace(LEAD, ""), !whole);
    if (whole && cut && name.length > 0 && !CAPITALISED.test(name)) return [];
    // A line that goes on with words after a name in lowercase is a sentence: "By law, children's
    // clothes must …" ("By Jerry Bonkowski, Special to Yahoo! Sports" keeps its name).
    if (whole && name.length === 0 && part.trim().length > 0 && out.some((n) => !CAPITALISED.test(n))) return [];
    if (name.length > 0 && !out.includes(name) && out.length < MAX_NAMES) out.push(name);
  }
  return out;
}

const HEX_ID = /^[0-9a-f]{8,}$/i;
/** What a handle may not hold: markup, an address, a path, a sentence's punctuation. */
const NOT_A_HANDLE = /[<>{}[\]@/\\|"“”?!:;,]/;

/**
 * A forum's username (the thread starter's link, a post's `username`): a handle as the forum
 * shows it ("lulug30", "Ejp55230", "Nikki J"), digits and lowercase included, where a byline's
 * rules would take the digits for a count. Its first line only (a user block goes on with a
 * title and counts); [] for a role ("Guest", "admin") or what is no handle.
 */
export function handleIn(text: string): string[] {
  let s = joinLines(text);
  const line = s.indexOf(" | ");
  if (line >= 0) s = s.slice(0, line);
  if (s.length < 2 || s.length > 40 || s.split(" ").length > 3 || NO_NAME.test(s) || NOT_A_HANDLE.test(s)) return [];
  // A member's id in hex ("01fe20bec297", CodeProject's hidden Person) is no displayed handle.
  if (HEX_ID.test(s) && /\d/.test(s)) return [];
  return [s];
}

/**
 * The byline's lines (its elements' texts) as one line: "By" + "Jane Doe" + "and" + "Bo Chen"
 * join with spaces, and any other edge becomes " | ", where the names end.
 */
function joinLines(text: string): string {
  if (!text.includes("\n")) return text.replace(SPACES, " ").trim();
  let out = "";
  let glue = false;
  for (const raw of text.split("\n")) {
    const line = raw.replace(SPACES, " ").trim();
    if (line.length === 0) continue;
    const starts = CONNECTOR.test(line) || line.startsWith(",") || line.startsWith("&");
    out += out.length === 0 ? line : glue || starts ? ` ${line}` : ` | ${line}`;
    glue = LEAD_ONLY.test(line) || CONNECTOR.test(line) || line.endsWith(",") || line.endsWith("&") || /\s(?:and|und|by)$/i.test(line);
  }
  return out;
}

/**
 * Words of a masthead's or a company's name, not a person's. Institutions ("Cleveland Clinic",
 * "Thrive Agency") are left: pages and their gold name them as authors.
 */
const CJK_ORGANISATION = /(?:集团|日报|晚报|报社|新闻|网|公司|政府|电视台|出版社|频道|中心)$/u;
const ORGANISATION_WORD =
  /\b(?:inc|llc|ltd|gmbh|corp|news|press|times|post|journal|magazine|daily|today|tribune|gazette|herald|newsroom|wire|associated|bureau)\b\.?/i;
/** "USA TODAY": a name in capitals is a masthead (initials such as "J. R. R." are short). */
const SHOUTED = /^[^a-z]*[A-Z]{3,}[^a-z]*\s[^a-z]*[A-Z]{3,}[^a-z]*$/;

/** Where a name written in one word begins its next word with a capital: "CBSNews", "NewsDay". */
const CAMEL_JOIN = /(\p{L})(?=\p{Lu}\p{Ll})/gu;

/** Whether `name` reads as a masthead's or a company's ("USA TODAY", "Acme News", "CBSNews", "新华网"), not a person's. */
function isMasthead(name: string): boolean {
  return (
    ORGANISATION_WORD.test(name) ||
    SHOUTED.test(name) ||
    CJK_ORGANISATION.test(name) ||
    (!name.includes(" ") && ORGANISATION_WORD.test(name.replace(CAMEL_JOIN, "$1 ")))
  );
}

/** Whether `name` is one of the site's names, case and punctuation aside. */
export function isSiteName(name: string, publishers: readonly string[]): boolean {
  const n = fold(name);
  return publishers.some((p) => p.length > 0 && fold(p) === n);
}

/** Folded for comparison: lowercase letters and digits only. */
const fold = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

/**
 * Whether `name` is the publisher's rather than a person's: the site's name (og:site_name,
 * JSON-LD publisher) or the host's own name ("Instructables" on www.instructables.com).
 */
export function isPublisher(name: string, publishers: readonly string[], host: string): boolean {
  const n = fold(name);
  if (n.length === 0) return true;
  if (isMasthead(name)) return true;
  // A site named after its author ("Rick Steves" on ricksteves.com) keeps the name: only a
  // one-word name that is also the site's or the host's ("Instructables") is the publisher, or
  // the host's name typed in lowercase in its own markup ("winnipeg sun" on winnipegsun.com).
  if (name.includes(" ") && (name !== name.toLowerCase() || !hostNamed(n, host))) return false;
  for (const p of publishers) if (fold(p) === n) return true;
  return hostNamed(n, host);
}

/**
 * Whether `name` is the site's own one-word name, one of its names (og:site_name, JSON-LD
 * publisher) or the host's ("whova" on whova.com), case and punctuation aside: a brand, not a
 * masthead ("USA TODAY", "winnipeg sun" on winnipegsun.com).
 */
export function isSitesOwnName(name: string, publishers: readonly string[], host: string): boolean {
  return !name.includes(" ") && !isMasthead(name) && (isSiteName(name, publishers) || hostNamed(fold(name), host));
}

/** Whether a folded name is one of the host's labels ("instructables" of www.instructables.com). */
function hostNamed(n: string, host: string): boolean {
  if (host.length > 0 && n.length >= 4) {
    for (const label of host.toLowerCase().split(".")) if (label.length >= 4 && fold(label) === n) return true;
  }
  return false;
}
