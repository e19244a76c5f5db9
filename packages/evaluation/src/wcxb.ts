import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { gunzip, gunzipSync } from "node:zlib";
import { hostOf } from "@winnow/archive";
import { LabelledDataError } from "./errors.js";

const gunzipAsync = promisify(gunzip);

/** One page's metadata, from metadata.json alone. */
export interface WcxbEntry {
  id: string;
  /** metadata.json's domain; "" when the dataset has none (a few pages lack domain and URL). */
  domain: string;
  pageType: string;
  spa: boolean;
  split: string;
}

export interface WcxbPage {
  id: string;
  url: string;
  /** metadata.json's domain, else the URL's host name, else "". */
  domain: string;
  pageType: string;
  /** Gunzipped UTF-8 HTML. */
  html: string;
  /** ground_truth.main_content ("" when absent: two dev pages have none). */
  gold: string;
  withSnippets: string[];
  withoutSnippets: string[];
  title: string;
  /** ground_truth.comments: the user comments' text where a set labels them ("" otherwise). */
  comments: string;
  /** The set's language guess for the gold (ISO 639-1, "zh-cn"), "" when it has none. */
  language: string;
}

export interface WcxbOptions {
  /** Only these ids, in this order (each must be in metadata.json). Default: all, sorted. */
  ids?: readonly string[];
}

/** Metadata of every page (or of `options.ids`), without touching the HTML or gold files. */
export function listWcxb(dir: string, options: WcxbOptions = {}): WcxbEntry[] {
  const files = readMetadata(dir);
  return selectIds(files, options.ids, join(dir, "metadata.json")).map((id) => toEntry(id, files[id]));
}

/** Pages decoded concurrently ahead of the consumer: gunzip runs on libuv's thread pool. */
const READ_AHEAD = 8;

/** Streams pages in id order, so a caller can keep only what it needs in memory. */
export async function* loadWcxb(dir: string, options: WcxbOptions = {}): AsyncGenerator<WcxbPage> {
  const entries = listWcxb(dir, options);
  const pending: Promise<WcxbPage>[] = [];
  let next = 0;
  while (next < entries.length || pending.length > 0) {
    while (next < entries.length && pending.length < READ_AHEAD) {
      const p = readPage(dir, entries[next++]);
      p.catch(() => {}); // surfaced when awaited below; avoids an unhandled-rejection crash
      pending.push(p);
    }
    yield await pending.shift()!;
  }
}

async function readPage(dir: string, entry: WcxbEntry): Promise<WcxbPage> {
  const htmlPath = requireFile(dir, "html", `${entry.id}.html.gz`);
  const gtPath = requireFile(dir, "ground-truth", `${entry.id}.json`);
  const [gz, gt] = await Promise.all([readFile(htmlPath), readFile(gtPath, "utf8")]);
  const html = await gunzipAsync(gz).catch((error: unknown) => {
    throw new LabelledDataError(`not a whole gzip file: ${(error as Error).message}`, htmlPath);
  });
  return toPage(entry, html.toString("utf8"), parseJson(gt, gtPath));
}

/** All selected pages at once (≈ the whole dev split fits comfortably in memory). */
export function loadWcxbSync(dir: string, options: WcxbOptions = {}): WcxbPage[] {
  return listWcxb(dir, options).map((entry) => {
    const htmlPath = requireFile(dir, "html", `${entry.id}.html.gz`);
    const gtPath = requireFile(dir, "ground-truth", `${entry.id}.json`);
    let html: string;
    try {
      html = gunzipSync(readFileSync(htmlPath)).toString("utf8");
    } catch (error) {
      throw new LabelledDataError(`not a whole gzip file: ${(error as Error).message}`, htmlPath);
    }
    return toPage(entry, html, parseJson(readFileSync(gtPath, "utf8"), gtPath));
  });
}

type MetaFiles = Record<string, Record<string, unknown>>;

/** A page id as WCXB writes them ("0437"): letters, digits, ".", "_" and "-", not starting with ".". */
const SAFE_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

function readMetadata(dir: string): MetaFiles {
  const path = requireFile(dir, "metadata.json");
  for (const sub of ["html", "ground-truth"]) requireFile(dir, sub);
  const meta = parseJson(readFileSync(path, "utf8"), path);
  const files = isRecord(meta) ? meta.files : undefined;
  if (!isRecord(files)) throw new LabelledDataError(`not in the WCXB layout: ${path} has no "files" object`);
  return files as MetaFiles;
}

function selectIds(files: MetaFiles, ids: readonly string[] | undefined, metadataPath: string): string[] {
  const chosen = ids ?? Object.keys(files).sort();
  for (const id of chosen) {
    if (!Object.hasOwn(files, id)) throw new LabelledDataError(`WCXB page "${id}" is not in metadata.json`, metadataPath);
    // Ids name files under the folder; one that could reach outside it is refused, never followed.
    if (!SAFE_ID.test(id)) throw new LabelledDataError(`WCXB page id "${id}" is not a plain file name`, metadataPath);
  }
  return [...chosen];
}

function toEntry(id: string, m: Record<string, unknown>): WcxbEntry {
  return {
    id,
    domain: str(m.domain),
    pageType: str(m.page_type),
    spa: m.spa === true,
    split: str(m.split),
  };
}

function toPage(entry: WcxbEntry, html: string, gtFile: unknown): WcxbPage {
  const root = isRecord(gtFile) ? gtFile : {};
  const gt = isRecord(root.ground_truth) ? root.ground_truth : {};
  const url = str(root.url);
  return {
    id: entry.id,
    url,
    domain: entry.domain || hostOf(url),
    pageType: entry.pageType,
    html,
    gold: str(gt.main_content),
    withSnippets: strings(gt.with),
    withoutSnippets: strings(gt.without),
    title: str(gt.title),
    comments: str(gt.comments),
    language: str((isRecord(root._internal) ? root._internal : {}).language_guess),
  };
}

/** Path of a required file or folder, or an error naming exactly what is missing. */
function requireFile(dir: string, ...parts: string[]): string {
  const path = join(dir, ...parts);
  if (!existsSync(path)) throw new LabelledDataError(`not in the WCXB layout: ${path} is missing`);
  return path;
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new LabelledDataError(`invalid JSON: ${(e as Error).message}`, path);
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}
