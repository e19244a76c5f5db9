/**
 * `winnow clean --dedup`: the writer's one-pass dedup. Documents reach the writer in input order
 * (or as they finish, with --unordered) with their hashes made on the workers (steps.ts); the
 * first of each group of duplicates is written and the others become "duplicate" skips whose
 * rejects line names the document kept. @winnow/dedup's StreamingDeduper decides; this keeps
 * the ids it reports. Memory grows with the documents written (about 150 bytes each with
 * minhash); for corpora beyond one machine, `winnow dedup` works over the written shards.
 */
import { type DedupKeys, type DuplicateKind, StreamingDeduper } from "@winnow/dedup";

export interface DuplicateFound {
  kind: DuplicateKind;
  /** The record id (or URL) of the document kept in its place. */
  of: string;
  detail: string;
}

export class WriterDedup {
  readonly #deduper: StreamingDeduper;
  /** Duplicates found, by kind. */
  readonly found = { exact: 0, near: 0 };
  /** Ids by document number; only kept documents' are ever asked for. */
  readonly #ids: string[] = [];

  constructor(mode: "exact" | "minhash") {
    this.#deduper = new StreamingDeduper({ mode });
  }

  /** Checks the next document to be written, and remembers it when it is kept. */
  check(keys: DedupKeys, record: { recordId: string; url: string }): DuplicateFound | null {
    const match = this.#deduper.check(keys);
    if (match === null) {
      this.#ids.push(record.recordId !== "" ? record.recordId : record.url);
      return null;
    }
    this.#ids.push("");
    this.found[match.kind]++;
    const of = this.#ids[match.of];
    const how =
      match.kind === "exact" ? "same normalised text as" : `near duplicate (estimated Jaccard ${match.similarity?.toFixed(2)}) of`;
    return { kind: match.kind, of, detail: `${how} ${of}` };
  }
}
