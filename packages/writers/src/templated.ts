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

/** Documents routed to one writer per rendered path; close, abort and discard reach them all. */
export class TemplatedWriter implements CorpusWriter {
  readonly #template: string;
  readonly #open: (path: string) => Promise<CorpusWriter>;
  readonly #writers = new Map<string, Promise<CorpusWriter>>();
  #count = 0;

  constructor(template: string, open: (path: string) => Promise<CorpusWriter>) {
    this.#template = template;
    this.#open = open;
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
    return this.#all((w) => w.close());
  }

  abort(): Promise<void> {
    return this.#all((w) => w.abort());
  }

  discard(): Promise<void> {
    return this.#all((w) => w.discard());
  }

  /** Runs `step` on every writer that opened; the first failure is thrown once all have settled. */
  async #all(step: (w: CorpusWriter) => Promise<void>): Promise<void> {
    const results = await Promise.allSettled([...this.#writers.values()].map(async (w) => step(await w)));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed !== undefined) throw failed.reason;
  }
}
