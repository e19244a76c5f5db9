/**
 * Reading an input's rows: @winnow/writers' readCorpus (JSONL, .gz, .zst, Parquet), with the
 * failures that are the user's to fix (a missing file, a line that is not JSON) as InputErrors
 * naming the file, and each row's id and text taken the same way in every pass.
 */
import { InputError, systemReason } from "@winnow/errors";
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
