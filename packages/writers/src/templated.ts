/**
 * Outputs named by a document field: `-o 'out/{lang}/part.jsonl.gz'` writes each document to the
 * file its language names (out/en/part.jsonl.gz, out/de/part.jsonl.gz, ...), each file opened on
 * its first document and written like any other output (temporary name, renamed when closed).
 *
 * The one field is `lang`: its values are bounded (lid.176 knows 176 languages, plus "und" for a
 * document it could not identify), so the number of files open at once is too. A field with
 * unbounded values (the host, say) would need files closed and reopened as parts; it is left out
 * until that is built.
 */
import { existsSync } from "node:fs";
import { rename, unlink } from "node:fs/promises";
import type { CleanDocument, CorpusWriter } from "./types.js";

export const TEMPLATE_FIELDS = ["lang"] as const;
export type TemplateField = (typeof TEMPLATE_FIELDS)[number];

const FIELD = /\{([^{}]*)\}/g;
/** What a value may look like in a path: no separators, no dots, nothing a shell would expand. */
const SAFE = /^[A-Za-z0-9_-]+$/;
/** The value of a document without one (ISO 639-2's "undetermined"). */
export const UNKNOWN_VALUE = "und";

/** The fields `path` names, or [] when it is a plain path. Throws a RangeError for an unknown field. */
export function templateFields(path: string): TemplateField[] {
  const fields: TemplateField[] = [];
  for (const match of path.matchAll(FIELD)) {
    const name = match[1];
    if (!(TEMPLATE_FIELDS as readonly string[]).includes(name)) {
      throw new RangeError(`unknown field {${name}} in the output path: the fields are ${TEMPLATE_FIELDS.map((f) => `{${f}}`).join(", ")}`);
    }
    if (!fields.includes(name as TemplateField)) fields.push(name as TemplateField);
  }
  return fields;
}

/** The path of `doc`'s file. */
export function renderPath(template: string, doc: CleanDocument): string {
  return template.replace(FIELD, (_, name: string) => {
    const value = name === "lang" ? doc.lang : undefined;
    return value !== undefined && SAFE.test(value) ? value : UNKNOWN_VALUE;
  });
}

/**
 * Documents routed to one writer per rendered path; close, abort and discard reach them all.
 * Each file is written under a staging name of this process (see open.ts) and all are renamed
 * onto their final names only once every one has closed: a run that fails on one file
 * replaces none.
 */
export class TemplatedWriter implements CorpusWriter {
  readonly #template: string;
  readonly #open: (path: string) => Promise<CorpusWriter>;
  readonly #writers = new Map<string, Promise<CorpusWriter>>();
  /** The file each staged writer is renamed onto → its staging path. */
  readonly #staged = new Map<string, string>();
  #count = 0;

  /**
   * `open(path)` opens the writer of the rendered `path`, and says where it writes: `staged`, to
   * be renamed onto `final` (the file the path ends at, links followed), or null when it writes
   * in place (a device or FIFO).
   */
  constructor(template: string, open: (path: string) => Promise<{ writer: CorpusWriter; staged: { path: string; final: string } | null }>) {
    this.#template = template;
    this.#open = async (path) => {
      const { writer, staged } = await open(path);
      if (staged !== null) this.#staged.set(staged.final, staged.path);
      return writer;
    };
  }

  get documentsWritten(): number {
    return this.#count;
  }

  /** The files written so far (or being written), by path. */
  get paths(): string[] {
    return [...this.#writers.keys()];
  }

  async write(doc: CleanDocument): Promise<void> {
    const path = renderPath(this.#template, doc);
    let writer = this.#writers.get(path);
    if (writer === undefined) {
      writer = this.#open(path);
      this.#writers.set(path, writer);
    }
    const w = await writer;
    this.#count++;
    await w.write(doc);
  }

  close(): Promise<void> {
    return this.#commit((w) => w.close());
  }

  /** As close(): each file is completed valid, and all are put in place together. */
  abort(): Promise<void> {
    return this.#commit((w) => w.abort());
  }

  async discard(): Promise<void> {
    try {
      await this.#all((w) => w.discard());
    } finally {
      await this.#dropStaged();
    }
  }

  /** Finishes every file with `finish`; only if all finished are they renamed into place. */
  async #commit(finish: (w: CorpusWriter) => Promise<void>): Promise<void> {
    try {
      await this.#all(finish);
    } catch (error) {
      await this.#dropStaged();
      throw error;
    }
    for (const [final, staged] of this.#staged) {
      if (existsSync(staged)) await rename(staged, final);
    }
    this.#staged.clear();
  }

  async #dropStaged(): Promise<void> {
    await Promise.all([...this.#staged.values()].map((staged) => unlink(staged).catch(() => {})));
    this.#staged.clear();
  }

  /** Runs `step` on every writer that opened; the first failure is thrown once all have settled. */
  async #all(step: (w: CorpusWriter) => Promise<void>): Promise<void> {
    const results = await Promise.allSettled([...this.#writers.values()].map(async (w) => step(await w)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed !== undefined) throw failed.reason;
  }
}
