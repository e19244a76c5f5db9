/**
 * schema.org facts from a page's `<script type="application/ld+json">` blocks: the first
 * CreativeWork-like object that has them (an article, a web page, a posting) gives publication and
 * modification dates, authors, publisher name, section and keywords. Malformed JSON is ignored:
 * a page's JSON-LD is often hand-written.
 */
import { decodeHTML } from "entities";

export interface JsonLdFacts {
  datePublished?: string;
  /** The datePublished of an object that is only a web page: a date only for a page someone wrote. */
  pageDatePublished?: string;
  dateModified?: string;
  authors: string[];
  publisher?: string;
  sections: string[];
  keywords: string[];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The objects of a JSON-LD value, @graph members included, depth-first, at most `limit` of them. */
function objectsOf(value: Json, out: Array<Record<string, Json>>, limit: number): void {
  if (out.length >= limit || value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const item of value) objectsOf(item, out, limit);
    return;
  }
  out.push(value);
  const graph = value["@graph"];
  if (graph !== undefined) objectsOf(graph, out, limit);
}

/** Pages often HTML-escape their JSON-LD strings ("Maria &amp; Katerina"), and script text is never decoded. */
const text = (s: string): string => (s.includes("&") ? decodeHTML(s) : s);

function strings(value: Json | undefined): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === "string") return [text(value)];
  if (typeof value === "number") return [String(value)];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === "object") return strings(value.name);
  return [];
}

/** Types of an author object that name an organisation, not a person: a publisher is no author. */
const ORGANISATION =
  /Organization$|^(?:Corporation|NGO|NewsMediaOrganization|EducationalOrganization|GovernmentOrganization|LocalBusiness|Brand|WebSite)$/;

/**
 * The names of an `author` value. An object that is only a reference (`{"@id": "…#/schema/person/…"}`,
 * as Yoast writes it) names the graph's member of that `@id`, found among `objects`.
 */
function names(value: Json | undefined, objects: ReadonlyArray<Record<string, Json>>): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((item) => names(item, objects));
  if (typeof value === "string") return [text(value)];
  if (typeof value === "object") {
    const id = value["@id"];
    if (value.name === undefined && typeof id === "string") {
      const member = objects.find((object) => object !== value && object["@id"] === id);
      if (member !== undefined) value = member;
    }
    const type = value["@type"];
    if (typeof type === "string" && ORGANISATION.test(type)) return [];
    return strings(value.name);
  }
  return [];
}

function firstString(value: Json | undefined): string | undefined {
  return strings(value)[0];
}

/** Types whose dates are the page's rather than an event's, a product's or a person's. */
const SKIPPED_TYPES =
  /^(Person|Organization|Event|Product|Offer|Place|ImageObject|VideoObject|BreadcrumbList|SiteNavigationElement|WebSite|Comment|Answer|Review|Rating)$/;

/**
 * Types of a web page as such, not of what it publishes: a CMS gives every page, a service's or
 * a product's too, a WebPage with the day the page was first saved. An article's date is its
 * article's (Article, BlogPosting, NewsArticle, a QAPage's question…).
 */
const PAGE_TYPES = /^(?:WebPage|CollectionPage|ItemPage|AboutPage|ContactPage|ProfilePage|SearchResultsPage|CheckoutPage|MedicalWebPage)$/;

function typesOf(object: Record<string, Json>): string[] {
  const type = object["@type"];
  return typeof type === "string" ? [type] : Array.isArray(type) ? type.filter((t): t is string => typeof t === "string") : [];
}

/** Whether an object is only a web page: its datePublished is when the page was saved (pageDatePublished). */
function pageOnly(object: Record<string, Json>): boolean {
  const types = typesOf(object);
  return types.length > 0 && types.every((t) => PAGE_TYPES.test(t));
}

function skipped(object: Record<string, Json>): boolean {
  const types = typesOf(object);
  return types.length > 0 && types.every((t) => SKIPPED_TYPES.test(t));
}

/** Adds the facts of one script's text to `facts` (earlier scripts' facts win). */
export function readJsonLd(text: string, facts: JsonLdFacts): void {
  let parsed: Json;
  try {
    parsed = JSON.parse(text) as Json;
  } catch {
    return;
  }
  const objects: Array<Record<string, Json>> = [];
  objectsOf(parsed, objects, 200);
  for (const object of objects) {
    if (skipped(object)) {
      // A WebSite's name is the site's.
      if (object["@type"] === "WebSite" && facts.publisher === undefined) facts.publisher = firstString(object.name);
      continue;
    }
    // Each key is looked at only where the object has it: most graph members (images, breadcrumbs) have none.
    if (facts.datePublished === undefined && (object.datePublished !== undefined || object.dateCreated !== undefined)) {
      const date = firstString(object.datePublished) ?? firstString(object.dateCreated);
      if (!pageOnly(object)) facts.datePublished = date;
      else facts.pageDatePublished ??= date;
    }
    if (facts.dateModified === undefined && object.dateModified !== undefined) facts.dateModified = firstString(object.dateModified);
    if (facts.authors.length === 0 && (object.author !== undefined || object.creator !== undefined)) {
      facts.authors = names(object.author ?? object.creator, objects);
    }
    if (facts.publisher === undefined && object.publisher !== undefined) facts.publisher = strings(object.publisher)[0];
    if (facts.sections.length === 0 && object.articleSection !== undefined) facts.sections = strings(object.articleSection);
    if (facts.keywords.length === 0 && object.keywords !== undefined) {
      const keywords = object.keywords;
      facts.keywords = typeof keywords === "string" ? keywords.split(",") : strings(keywords);
    }
  }
}
