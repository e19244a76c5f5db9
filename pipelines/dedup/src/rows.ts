/**
 * Reading an input's rows: @winnow/writers' readCorpus (JSONL, .gz, .zst, Parquet), with the
 * failures that are the user's to fix (a missing file, a line that is not JSON) as InputErrors
 * naming the file, and each row's id and text taken the same way in every pass.
 */
import { hashOf } from "@winnow/dedup";
import { InputError, UsageError, systemReason } from "@winnow/errors";
import { type CorpusRow, readCorpus } from "@winnow/writers";

export async function* rowsOf(path: string): AsyncGenerator<CorpusRow> {
  let iterator: AsyncIterator<CorpusRow>;
  try {
    iterator = readCorpus(path)[Symbol.asyncIterator]();
  } catch (error) {
    throw new InputError(`cannot read: ${systemReason(error)}`, path, { cause: error });
  }
  for (;;) {
    let next: IteratorResult<CorpusRow>;
    try {
      next = await iterator.next();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const what =
        code !== undefined ? `cannot read: ${systemReason(error)}` : `not a winnow output (JSONL or Parquet): ${(error as Error).message}`;
      throw new InputError(what, path, { cause: error });
    }
    if (next.done === true) return;
    yield next.value;
  }
}

/** The text of a row; a row without the field counts as empty text. */
export function textOf(row: CorpusRow, field: string): string {
  const text = row[field];
  return typeof text === "string" ? text : "";
}

/** The id rejects name a document by: its WARC record id, else its id or URL, else input#row. */
export function idOf(row: CorpusRow, input: string, index: number): string {
  for (const field of ["warc_record_id", "id", "url"]) {
    const v = row[field];
    if (typeof v === "string" && v !== "") return v;
  }
  return `${input}#${index}`;
}

/**
 * The key a document is addressed by besides its row: XXH3-64 of its id and its text. The row
 * alone would name whatever is at that place now; the id alone may be missing (idOf then falls
 * back to input#row) or shared by copies. Id and text together change when the row holds another
 * document, so the filter pass drops row r only where the key is the one the signature pass saw.
 */
export function docKey(row: CorpusRow, input: string, index: number, textField: string): bigint {
  return hashOf(`${idOf(row, input, index)}\u0000${textOf(row, textField)}`);
}

/**
 * Which fields an input's rows have and whether any has the text field, to refuse a --text-field
 * that names none (the run would deduplicate empty texts: nothing) instead of doing nothing.
 */
export class TextFieldCheck {
  readonly #field: string;
  readonly #seen = new Set<string>();
  #rows = 0;
  #withText = 0;

  constructor(field: string) {
    this.#field = field;
  }

  see(row: CorpusRow): void {
    this.#rows++;
    if (typeof row[this.#field] === "string") this.#withText++;
    else if (this.#seen.size < 100) for (const key of Object.keys(row)) this.#seen.add(key);
  }

  /** Throws a UsageError (exit 2) when the input has rows and none has the field as a string. */
  check(input: string): void {
    if (this.#rows === 0 || this.#withText > 0) return;
    const fields = [...this.#seen].sort();
    const has = this.#seen.has(this.#field) ? ` (it is there, but never a string)` : "";
    throw new UsageError(
      `no row of ${input} has the text field ${JSON.stringify(this.#field)}${has}; its rows have: ${fields.join(", ") || "no fields"}`,
      `--text-field ${this.#field}`,
    );
  }
}
