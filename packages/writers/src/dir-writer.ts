import { constants, createWriteStream, rename, unlink, type WriteStream, writeFile } from "node:fs";
import { access, mkdir, readdir, readFile as readFileAsync, rename as renameAsync, unlink as unlinkAsync } from "node:fs/promises";
import { join } from "node:path";
import { gzip as gzipBuffer } from "node:zlib";
import { UsageError } from "@winnow/errors";
import { documentText } from "./formats.js";
import type { CleanDocument, CorpusWriter } from "./types.js";
import { forgetTempPath, GZIP_LEVEL, outputError, RESOLVED, tempPathFor } from "./util.js";

/**
 * Files being written at once. Each document costs open/write/close/rename on the thread
 * pool (4 workers by default); a few more than that keeps it busy without unbounded queues.
 */
const MAX_IN_FLIGHT = 16;

/** Width of the sequence number; it simply grows past 999999 (sorting then needs -V). */
const SEQ_WIDTH = 6;
const SLUG_MAX = 48;

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
const NON_ALNUM = /[^a-z0-9]+/g;
const EDGE_DASHES = /^-+|-+$/g;

const noop = (): void => {};

/** "https://www.example.com/a/b?c=1" -> "www-example-com-a-b-c-1": readable, portable, bounded. */
function slugOf(url: string): string {
  let s = url.replace(SCHEME, "").toLowerCase().replace(NON_ALNUM, "-");
  if (s.length > SLUG_MAX) s = s.slice(0, SLUG_MAX);
  return s.replace(EDGE_DASHES, "");
}

/** `000001-www-example-com-page.txt`; the number alone when the URL yields no slug. */
function documentFileName(seq: number, url: string, gzip: boolean): string {
  const slug = slugOf(url);
  return String(seq).padStart(SEQ_WIDTH, "0") + (slug.length > 0 ? `-${slug}` : "") + (gzip ? ".txt.gz" : ".txt");
}

/** The index of a text folder: one JSON line per document, `{file, url, id}`, in document order. */
export const INDEX_FILE = "index.jsonl";

/** The names a text folder's documents get (documentFileName), and its index: names no other file there may have. */
const WRITTEN_HERE = /^(\d{6,}(-[a-z0-9-]+)?\.txt(\.gz)?|index\.jsonl)$/;

/**
 * Text format into a directory: one file per document, each written under a temporary name and
 * renamed when complete, so the directory only ever shows whole documents, and index.jsonl
 * naming each file's URL and record id (renamed into place when the writer closes). Back-pressure
 * is the number of files in flight.
 */
class DirCorpusWriter implements CorpusWriter {
  readonly #dir: string;
  readonly #gzip: boolean;
  readonly #index: WriteStream;
  readonly #indexTmp: string;
  #seq = 0;
  #inFlight = 0;
  #error: Error | null = null;
  #finishing: Promise<void> | null = null;
  #slot: Promise<void> | null = null;
  #slotResolve: (() => void) | null = null;
  #slotReject: ((err: Error) => void) | null = null;
  #idleResolve: (() => void) | null = null;

  constructor(dir: string, gzip: boolean) {
    this.#dir = dir;
    this.#gzip = gzip;
    this.#indexTmp = tempPathFor(join(dir, INDEX_FILE));
    this.#index = createWriteStream(this.#indexTmp);
    this.#index.on("error", (err) => {
      this.#error ??= outputError("cannot write", join(dir, INDEX_FILE), err);
    });
  }

  get documentsWritten(): number {
    return this.#seq;
  }

  write(doc: CleanDocument): Promise<void> {
    if (this.#error !== null) return Promise.reject(this.#error);
    if (this.#finishing !== null) {
      return Promise.reject(new Error(`@winnow/writers: write() after close() or abort() on ${this.#dir}`));
    }
    let data: string;
    let name: string;
    try {
      data = `${documentText(doc)}\n`;
      name = documentFileName(this.#seq + 1, doc.url, this.#gzip);
    } catch (err) {
      return Promise.reject(err);
    }
    this.#seq++;
    this.#inFlight++;
    // Small lines into a buffered stream: its back-pressure is the document files'.
    this.#index.write(`${JSON.stringify({ file: name, url: doc.url, id: doc.recordId })}\n`);
    const finalPath = join(this.#dir, name);
    const tmpPath = tempPathFor(finalPath);
    const done = (err: Error | null): void => this.#settle(err, finalPath, tmpPath);
    const put = (payload: string | Buffer): void =>
      writeFile(tmpPath, payload, (err) => (err ? done(err) : rename(tmpPath, finalPath, done)));
    if (this.#gzip) gzipBuffer(data, { level: GZIP_LEVEL }, (err, buf) => (err ? done(err) : put(buf)));
    else put(data);
    if (this.#inFlight < MAX_IN_FLIGHT) return this.#slot ?? RESOLVED;
    return (this.#slot ??= new Promise<void>((resolve, reject) => {
      this.#slotResolve = resolve;
      this.#slotReject = reject;
    }));
  }

  close(): Promise<void> {
    return (this.#finishing ??= this.#finish());
  }

  /** Every file is renamed only once complete, so abort is close: wait for those in flight. */
  abort(): Promise<void> {
    return this.close();
  }

  /** Files already renamed are whole documents and stay; those in flight are finished. */
  discard(): Promise<void> {
    return this.close();
  }

  #settle(err: Error | null, finalPath: string, tmpPath: string): void {
    this.#inFlight--;
    forgetTempPath(tmpPath);
    if (err) {
      unlink(tmpPath, noop);
      if (this.#error === null) this.#error = outputError("cannot write", finalPath, err);
    }
    if (this.#error !== null) {
      const reject = this.#slotReject;
      this.#slot = this.#slotResolve = this.#slotReject = null;
      if (reject !== null) reject(this.#error);
    } else if (this.#inFlight < MAX_IN_FLIGHT) {
      const resolve = this.#slotResolve;
      this.#slot = this.#slotResolve = this.#slotReject = null;
      if (resolve !== null) resolve();
    }
    if (this.#inFlight === 0 && this.#idleResolve !== null) this.#idleResolve();
  }

  async #finish(): Promise<void> {
    if (this.#inFlight > 0) await new Promise<void>((resolve) => (this.#idleResolve = resolve));
    const index = this.#index;
    if (!index.closed) await new Promise<void>((resolve) => index.end(resolve));
    // The documents written are whole files, so the index of them is kept whatever ended the run.
    const finalIndex = join(this.#dir, INDEX_FILE);
    await renameAsync(this.#indexTmp, finalIndex).catch((err: unknown) => {
      this.#error ??= outputError("cannot write", finalIndex, err);
      return unlinkAsync(this.#indexTmp).catch(noop);
    });
    forgetTempPath(this.#indexTmp);
    if (this.#error !== null) throw this.#error;
  }
}

/**
 * Creates the directory if needed and checks that it can be written before any document arrives.
 * A directory that already holds something is refused (a second run would put its 000001 beside
 * the first's), unless `overwrite`: then the documents the earlier run's index.jsonl lists, and
 * the index, are removed first; nothing else is. A file with a document's name that the index
 * does not list (a user's own, or a run's whose index was lost) is refused, since this run's
 * documents would be renamed over it.
 */
export async function openDirWriter(dir: string, gzip: boolean, overwrite = false): Promise<DirCorpusWriter> {
  let entries: string[];
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
    entries = (await readdir(dir)).sort();
  } catch (err) {
    throw outputError("cannot write into directory", dir, err);
  }
  if (entries.length > 0 && !overwrite) {
    const shown = entries.slice(0, 3).join(", ") + (entries.length > 3 ? ` and ${entries.length - 3} more` : "");
    throw new UsageError(
      `the output folder is not empty (${shown}): a second run would write its documents beside the first's. ` +
        "Give --overwrite to replace the documents and index.jsonl an earlier run wrote there, or name a new or empty folder",
      dir,
    );
  }
  if (overwrite) await removeEarlierRun(dir, entries);
  return new DirCorpusWriter(dir, gzip);
}

/** Removes what the earlier run's index lists (and the index), or refuses; see openDirWriter. */
async function removeEarlierRun(dir: string, entries: readonly string[]): Promise<void> {
  const listed = new Set<string>();
  const index = await readFileAsync(join(dir, INDEX_FILE), "utf8").catch(() => "");
  for (const line of index.split("\n")) {
    try {
      const file = (JSON.parse(line) as { file?: unknown }).file;
      // Only a name of this writer's, in this folder: an index cannot send the removal elsewhere.
      if (typeof file === "string" && WRITTEN_HERE.test(file)) listed.add(file);
    } catch {
      // A torn line names nothing.
    }
  }
  const unlisted = entries.filter((name) => WRITTEN_HERE.test(name) && name !== INDEX_FILE && !listed.has(name));
  if (unlisted.length > 0) {
    const shown = unlisted.slice(0, 3).join(", ") + (unlisted.length > 3 ? ` and ${unlisted.length - 3} more` : "");
    throw new UsageError(
      `the output folder holds ${shown}, which no earlier run's index.jsonl lists: --overwrite removes only what a run wrote, ` +
        "and this run's documents would take those names. Move them, or name a new or empty folder",
      dir,
    );
  }
  const remove = entries.filter((name) => listed.has(name) || name === INDEX_FILE);
  try {
    await Promise.all(remove.map((name) => unlinkAsync(join(dir, name))));
  } catch (err) {
    throw outputError("cannot remove an earlier run's documents from", dir, err);
  }
}
