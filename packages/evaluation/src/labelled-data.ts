/**
 * Reading labelled pages for `winnow eval`, `winnow train` and `winnow label`: a directory in the
 * WCXB layout (html/*.html.gz + ground-truth/*.json + metadata.json), a JSONL file of
 * {url, html, text} lines for users who pair their own pages with clean text, or, for users who
 * have no clean text (gold "", labels come from files), the inputs `winnow clean` reads: .html
 * and .html.gz files, WARC and ARC archives, or a folder of them.
 */
import { createReadStream, existsSync, statSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { basename, join, relative, resolve, sep } from "node:path";
import { createInterface } from "node:readline";
import { gunzipSync } from "node:zlib";
import { decodeHtmlPieces, hostOf, readRecords } from "@winnow/archive";
import { segmentHtml } from "@winnow/segment";
import { LabelledDataError } from "./errors.js";
import { labelPage, type LabelledPage } from "./labelled-page.js";
import { loadWcxb } from "./wcxb.js";

export interface LoadLabelledOptions {
  /** Keep only the first N pages (in id or line order). */
  limit?: number;
  /** Called after each page, for progress. */
  onPage?: (loaded: number) => void;
  /** The source name the pages carry; default: the folder or file name without its extension. */
  source?: string;
}

/** The source name of a data path: its folder or file name, without .jsonl. */
export function sourceName(path: string): string {
  return basename(resolve(path)).replace(/\.jsonl$/i, "");
}

export async function loadLabelledPages(path: string, options: LoadLabelledOptions = {}): Promise<LabelledPage[]> {
  if (!existsSync(path)) throw new LabelledDataError("labelled data not found", path);
  const withSource = { ...options, source: options.source ?? sourceName(path) };
  const pages = statSync(path).isDirectory()
    ? await loadWcxbPages(path, withSource)
    : PAGE_FILE.test(path)
      ? await loadHtmlFiles(resolve(path, ".."), [path], withSource)
      : await loadJsonlPages(path, withSource);
  if (pages.length === 0) throw new LabelledDataError("no labelled pages", path);
  return pages;
}

/**
 * Pages of several data sets, each page carrying its set's name as `source` (the names must
 * differ: they are what leave-one-source-out and per-source figures are keyed by).
 */
export async function loadLabelledSources(paths: readonly string[], options: LoadLabelledOptions = {}): Promise<LabelledPage[]> {
  const seen = new Map<string, string>();
  const pages: LabelledPage[] = [];
  for (const path of paths) {
    const source = sourceName(path);
    const other = seen.get(source);
    if (other !== undefined) throw new LabelledDataError(`two data sets are both named "${source}"`, `${other}, ${path}`);
    seen.set(source, path);
    const offset = pages.length;
    pages.push(...(await loadLabelledPages(path, { ...options, source, onPage: (n) => options.onPage?.(offset + n) })));
  }
  return pages;
}

/**
 * The paths reading `path` as labelled data touches: the path itself and, for a folder, the
 * WCXB layout's metadata.json, html/ and ground-truth/ with their files, or the .html files of a
 * plain folder. For checking that no output of a run is one of its inputs, before reading.
 */
export async function labelledDataPaths(path: string): Promise<string[]> {
  const paths = [path];
  if (!existsSync(path) || !statSync(path).isDirectory()) return paths;
  if (!existsSync(join(path, "metadata.json"))) return [...paths, ...(await listHtmlFiles(path).catch(() => []))];
  paths.push(join(path, "metadata.json"));
  for (const sub of ["html", "ground-truth"]) {
    const folder = join(path, sub);
    paths.push(folder);
    const names = await readdir(folder).catch(() => [] as string[]);
    for (const name of names) paths.push(join(folder, name));
  }
  return paths;
}

/** Pages named in a message before "and N more". */
const NAMED_PAGES = 5;

/**
 * Throws a LabelledDataError (exit 3) when most pages have no gold text: scores against it, or
 * labels aligned with it, would mean nothing (every page would be all boilerplate, F1 0 or 1).
 * An empty gold text is allowed on a few pages, as WCXB has pages without main content (21 of
 * its 1358 dev pages); when there are some, `warn` is told how many and which.
 */
export function requireGoldText(pages: readonly LabelledPage[], path: string, warn: (message: string) => void = () => {}): void {
  const missing = pages.filter((page) => page.gold.trim().length === 0).map((page) => page.id);
  if (missing.length === 0) return;
  const ids =
    missing.slice(0, NAMED_PAGES).join(", ") + (missing.length > NAMED_PAGES ? `, ... (${missing.length - NAMED_PAGES} more)` : "");
  const counted = `${missing.length} of ${pages.length} pages have no gold text (${ids})`;
  if (2 * missing.length > pages.length) {
    throw new LabelledDataError(
      `${counted}: scoring and alignment labels need it (JSONL: a non-empty "text"; WCXB: ground_truth.main_content)`,
      path,
    );
  }
  warn(`${counted}; they count as pages whose every block is boilerplate (${path})`);
}

async function loadWcxbPages(dir: string, options: LoadLabelledOptions): Promise<LabelledPage[]> {
  if (!existsSync(`${dir}/metadata.json`)) {
    const files = await listHtmlFiles(dir);
    if (files.length > 0) return loadHtmlFiles(dir, files, options);
    throw new LabelledDataError(
      `${dir} holds neither the WCXB layout (html/, ground-truth/, metadata.json) nor any .html, .html.gz, WARC or ARC files`,
    );
  }
  const pages: LabelledPage[] = [];
  for await (const page of loadWcxb(dir)) {
    pages.push(labelPage(page, options.source ?? sourceName(dir)));
    options.onPage?.(pages.length);
    if (options.limit !== undefined && pages.length >= options.limit) break;
  }
  return pages;
}

/** One JSON object per line: {"url": ..., "html": ..., "text": ...}; optional "id", "page_type", "comments", "language". */
async function loadJsonlPages(file: string, options: LoadLabelledOptions): Promise<LabelledPage[]> {
  const pages: LabelledPage[] = [];
  const lines = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Infinity });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber++;
    if (line.trim().length === 0) continue;
    let record: {
      url?: unknown;
      html?: unknown;
      text?: unknown;
      id?: unknown;
      page_type?: unknown;
      comments?: unknown;
      language?: unknown;
    };
    try {
      record = JSON.parse(line);
    } catch {
      throw new LabelledDataError(`${file}:${lineNumber}: not a JSON object`);
    }
    if (typeof record.html !== "string" || typeof record.text !== "string") {
      throw new LabelledDataError(`${file}:${lineNumber}: needs string fields "html" and "text"`);
    }
    const url = typeof record.url === "string" ? record.url : "";
    pages.push({
      source: options.source ?? sourceName(file),
      id: typeof record.id === "string" ? record.id : String(lineNumber),
      url,
      domain: hostOf(url),
      pageType: typeof record.page_type === "string" ? record.page_type : "page",
      doc: segmentHtml(record.html),
      gold: record.text,
      withSnippets: [],
      withoutSnippets: [],
      comments: typeof record.comments === "string" ? record.comments : "",
      language: typeof record.language === "string" ? record.language : "",
    });
    options.onPage?.(pages.length);
    if (options.limit !== undefined && pages.length >= options.limit) break;
  }
  return pages;
}

const HTML_FILE = /\.(html?|xhtml)(\.gz)?$/i;
const ARCHIVE_FILE = /\.(warc|arc)(\.gz|\.zst)?$/i;
/** A file read as pages (not as JSONL): what `winnow clean` reads. */
const PAGE_FILE = /\.(html?|xhtml|warc|arc)(\.gz|\.zst)?$/i;

/** Every .html/.htm/.xhtml file (also gzipped) and WARC/ARC archive under dir, sorted, so page order (and --limit) is stable. */
async function listHtmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && (HTML_FILE.test(e.name) || ARCHIVE_FILE.test(e.name)))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/**
 * Plain HTML files and archives: no gold text. An HTML file has no URL, so no domain either, and
 * its id is the path relative to the directory, with "/" separators, which is what label files
 * are keyed by; an archive gives a page per HTML record, with the record's URL and its id
 * (WARC-Record-ID) as the page id.
 */
async function loadHtmlFiles(dir: string, files: readonly string[], options: LoadLabelledOptions): Promise<LabelledPage[]> {
  const pages: LabelledPage[] = [];
  const full = (): boolean => options.limit !== undefined && pages.length >= options.limit;
  const add = (id: string, url: string, body: Uint8Array, charset: string): void => {
    const { pieces } = decodeHtmlPieces(body, charset);
    pages.push({
      source: options.source ?? sourceName(dir),
      id,
      url,
      domain: hostOf(url),
      pageType: "page",
      doc: segmentHtml(pieces),
      gold: "",
      withSnippets: [],
      withoutSnippets: [],
      comments: "",
      language: "",
    });
    options.onPage?.(pages.length);
  };
  for (const file of files) {
    if (full()) break;
    if (ARCHIVE_FILE.test(file)) {
      for await (const record of readRecords(file)) {
        add(record.recordId, record.url, record.body, record.charset);
        if (full()) break;
      }
      continue;
    }
    const bytes = await readFile(file);
    add(relative(dir, file).split(sep).join("/"), "", /\.gz$/i.test(file) ? gunzipSync(bytes) : bytes, "");
  }
  return pages;
}
