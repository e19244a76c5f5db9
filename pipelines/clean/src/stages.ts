/**
 * The three stages of a cleaning run, each a loop that waits on the next instead of buffering:
 * readers cut records into batches, a dispatcher hands batches to the cleaner with a bounded
 * number in flight, and one writer loop writes the results in input order (or as they finish).
 * Memory stays flat whatever the input size.
 */
import { type ArchiveRecord, ArchiveOpenError, type InputOpener, readRecords, type SkipEvent } from "@winnow/archive";
import { redactUrl } from "@winnow/remote";
import { errorMessage } from "@winnow/errors";
import type { CleanDocument, CorpusWriter } from "@winnow/writers";
import type { Logger } from "pino";
import type { WriterDedup } from "./dedup.js";
import { Channel, Slots } from "./flow.js";
import type { PageOutput } from "./page.js";
import type { PageCleaner } from "./pool.js";
import type { RejectLine, RejectLog } from "./rejects.js";
import { type CleanProgress, type CleanSkipReason, type InputFailure, noSkips, type PiiSummary } from "./summary.js";

/**
 * A batch also closes at this many payload bytes: pages of modern sites run to megabytes, and 16
 * of them in flight per worker were most of the peak RSS (benchmarks/RESULTS.md, memory).
 */
export const MAX_BATCH_BYTES = 4 << 20;
/** Batches a reader may get ahead of the dispatcher. */
const READ_AHEAD = 2;

export interface StageParts {
  cleaner: PageCleaner;
  writer: CorpusWriter;
  rejects: RejectLog | null;
  /** With --dedup: decides, in writing order, which documents repeat an earlier one. */
  dedup: WriterDedup | null;
  logger: Logger;
  batchSize: number;
  maxOpenInputs: number;
  maxPageBytes: number | undefined;
  /** Inflate large gzip members ahead on zlib's threads (ReadOptions.inflateAhead). */
  inflateAhead: boolean;
  /** Opens remote inputs (see @winnow/archive's ReadOptions.open); local files when absent. */
  open?: InputOpener;
  ordered: boolean;
  inFlight: number;
  onProgress: ((progress: Readonly<CleanProgress>) => void) | undefined;
  signal: AbortSignal | undefined;
  /** Per input: records an earlier run handled, read again but passed over. */
  passOver: readonly number[] | undefined;
  /** Called once per input, when reading it has ended and every record read is handled. */
  onInputDone: ((index: number, tally: Readonly<InputTally>) => void) | undefined;
}

/** What became of one input's records in this run. */
export interface InputTally {
  /** Records read, not counting those passed over. */
  read: number;
  /** Of those, written or counted as skipped. */
  handled: number;
  documents: number;
  readingEnded: boolean;
  /** Read to its end: not cut short by an interruption, a read error or a failure to open. */
  complete: boolean;
  done: boolean;
}

/** Records of one input, cut into a batch by its reader. */
interface Batch {
  input: number;
  records: ArchiveRecord[];
}

/** A batch on its way to the writer: the records, and their outputs once cleaned. */
interface Cleaned extends Batch {
  outputs: PageOutput[] | Promise<PageOutput[]>;
}

/** The three stages of a run, wired together; `done` settles when all of them have finished. */
export class Stages {
  readonly progress: CleanProgress = { recordsRead: 0, bytesRead: 0, documentsWritten: 0, skipped: 0 };
  readonly skipped = noSkips();
  /** With --pii: what was masked in the documents written. */
  readonly pii: PiiSummary = { documents: 0, emails: 0, ips: 0 };
  /** Inputs that opened but gave not a byte. */
  readonly unreadInputs: InputFailure[] = [];
  /** Inputs whose reading failed after some of their bytes were read: what came before was cleaned. */
  readonly cutShortInputs: InputFailure[] = [];
  /** The first write failure; once set, reading stops and results are dropped. */
  writeError: unknown = null;
  /** Reading ended on the abort signal, not at the end of the inputs. */
  interrupted = false;
  /**
   * Records found in the inputs, of any kind: HTML records (passed over ones included) and
   * records the reader skipped. Damaged bytes that are no record, and a file that is not an
   * archive or HTML at all, do not count (see isRecordSkip).
   */
  recordsFound = 0;
  readonly done: Promise<void>;

  readonly #files: readonly string[];
  readonly #parts: StageParts;
  readonly #traceSkips: boolean;
  /**
   * Ordered: one channel per input, made when its reader or the dispatcher first needs it and
   * dropped once drained, so a run over many files holds only the few being read. Unordered:
   * one channel shared by all readers.
   */
  readonly #batches: Array<Channel<Batch> | undefined>;
  #readingDone = false;
  readonly #cleaned = new Channel<Cleaned>(Infinity); // bounded by #slots
  readonly #slots: Slots;
  readonly #tallies: InputTally[];

  constructor(files: readonly string[], parts: StageParts) {
    this.#files = files;
    this.#parts = parts;
    this.#tallies = files.map(() => ({ read: 0, handled: 0, documents: 0, readingEnded: false, complete: false, done: false }));
    this.#traceSkips = parts.logger.isLevelEnabled("debug");
    this.#slots = new Slots(parts.inFlight);
    this.#batches = parts.ordered ? new Array(files.length) : [new Channel(READ_AHEAD * parts.maxOpenInputs)];
    // Hands the live object over at once, so a progress display can follow reading from the start.
    parts.onProgress?.(this.progress);
    this.done = Promise.all([this.#read(), this.#dispatch(), this.#write()]).then(() => {});
  }

  get #stopping(): boolean {
    return this.writeError !== null || this.#parts.signal?.aborted === true;
  }

  // Stage 1: a few readers, each taking the next input, cutting its records into batches.
  async #read(): Promise<void> {
    let next = 0;
    const reader = async (): Promise<void> => {
      while (next < this.#files.length && !this.#stopping) await this.#readInput(next++);
    };
    const readers = Math.min(this.#parts.maxOpenInputs, this.#files.length);
    await Promise.all(Array.from({ length: readers }, reader));
    // Inputs never started (interrupted) must still end for the dispatcher, which waits on them.
    this.#readingDone = true;
    this.interrupted = this.#parts.signal?.aborted === true;
    for (const channel of this.#batches) channel?.close();
  }

  #channelFor(index: number): Channel<Batch> {
    if (!this.#parts.ordered) return this.#batches[0] as Channel<Batch>;
    let channel = this.#batches[index];
    if (channel === undefined) {
      channel = this.#batches[index] = new Channel(READ_AHEAD);
      if (this.#readingDone) channel.close();
    }
    return channel;
  }

  async #readInput(index: number): Promise<void> {
    const input = this.#files[index];
    const out = this.#channelFor(index);
    const { batchSize, rejects } = this.#parts;
    const progress = this.progress;
    const tally = this.#tallies[index];
    const passOver = this.#parts.passOver?.[index] ?? 0;
    let inputBytes = 0;
    // Set from the onSkip callback, which control-flow analysis cannot see.
    let unreadable = null as string | null;
    /** Records the reader gave, passed over ones included. */
    let given = 0;
    let cutShort = false;
    let batch: ArchiveRecord[] = [];
    const options = {
      maxPageBytes: this.#parts.maxPageBytes,
      open: this.#parts.open,
      signal: this.#parts.signal,
      inflateAhead: this.#parts.inflateAhead,
      onSkip: (event: SkipEvent) => {
        // A remote input closed because the run was told to stop is interrupted, not unreadable.
        if (event.reason === "unreadable" && this.#parts.signal?.aborted === true) return;
        if (isRecordSkip(event)) this.recordsFound++;
        // An earlier run reported what came before the records it handled.
        if (given < passOver) return;
        if (event.reason === "unreadable") unreadable ??= event.detail;
        this.#skip(event, event.reason, event.detail);
      },
      onProgress: (bytes: number) => {
        progress.bytesRead += bytes - inputBytes;
        inputBytes = bytes;
      },
    };
    let batchBytes = 0;
    try {
      for await (const record of readRecords(input, options)) {
        this.recordsFound++;
        if (++given > passOver) {
          tally.read++;
          progress.recordsRead++;
          batch.push(record);
          batchBytes += record.body.byteLength;
          if (batch.length === batchSize || batchBytes >= MAX_BATCH_BYTES) {
            const wait = out.push({ input: index, records: batch });
            batch = [];
            batchBytes = 0;
            if (wait) await wait;
          }
          if (rejects?.full) await rejects.drained();
        }
        if (this.#stopping) {
          cutShort = true;
          break;
        }
      }
    } catch (error) {
      cutShort = true;
      // readRecords throws only when the input cannot be opened; anything else is reported the same way.
      const reason = error instanceof ArchiveOpenError ? error.reason : `reading failed: ${errorMessage(error)}`;
      this.unreadInputs.push({ input, reason });
      this.#parts.logger.warn({ input: redactUrl(input) }, `cannot read input: ${reason} (${redactUrl(input)})`);
    }
    if (batch.length > 0) await out.push({ input: index, records: batch });
    if (this.#parts.ordered) out.close();
    if (unreadable !== null && inputBytes === 0 && tally.read === 0) {
      this.unreadInputs.push({ input, reason: unreadable });
      this.#parts.logger.warn({ input: redactUrl(input) }, `cannot read input: ${unreadable} (${redactUrl(input)})`);
    } else if (unreadable !== null) {
      this.cutShortInputs.push({ input, reason: unreadable });
      this.#parts.logger.warn({ input: redactUrl(input) }, `input cut short: ${unreadable} (${redactUrl(input)})`);
    }
    tally.readingEnded = true;
    tally.complete = !cutShort && unreadable === null;
    this.#settle(index);
  }

  /** Reports an input once reading it has ended and all its records are handled. */
  #settle(index: number): void {
    const tally = this.#tallies[index];
    if (tally.done || !tally.readingEnded || tally.handled < tally.read) return;
    tally.done = true;
    this.#parts.onInputDone?.(index, tally);
  }

  // Stage 2: hand batches to the cleaner, at most `inFlight` not yet written.
  async #dispatch(): Promise<void> {
    const { cleaner, ordered } = this.#parts;
    let pending = 0;
    let dispatched = false;
    const cleaned = this.#cleaned;
    const channels = ordered ? this.#files.length : 1;
    for (let i = 0; i < channels; i++) {
      const channel = this.#channelFor(i);
      for (let batch = await channel.take(); batch !== undefined; batch = await channel.take()) {
        const wait = this.#slots.acquire();
        if (wait) await wait;
        if (this.writeError !== null) {
          this.#slots.release();
          continue;
        }
        const { input, records } = batch;
        const outputs = cleaner.clean(records);
        if (ordered) {
          // Queued now, awaited by the writer in this order: results come out in input order.
          cleaned.push({ input, records, outputs });
        } else {
          pending++;
          void outputs.then((done) => {
            cleaned.push({ input, records, outputs: done });
            if (--pending === 0 && dispatched) cleaned.close();
          });
        }
      }
      if (ordered) this.#batches[i] = undefined;
    }
    dispatched = true;
    if (ordered || pending === 0) cleaned.close();
  }

  // Stage 3: write the kept documents, count the rest.
  async #write(): Promise<void> {
    const { writer, onProgress } = this.#parts;
    const progress = this.progress;
    for (let batch = await this.#cleaned.take(); batch !== undefined; batch = await this.#cleaned.take()) {
      const { records } = batch;
      const outputs = await batch.outputs;
      const written = writer.documentsWritten;
      for (let i = 0; i < records.length; i++) {
        const record = records[i];
        const out = outputs[i];
        if (!out.ok) {
          this.#skip(record, out.reason, out.detail, "rule" in out ? out : undefined);
        } else if (out.blocks.length === 0 && out.filterFailed === undefined) {
          // (With --keep-filtered a page C4's line rules emptied is still written, with the rules it failed.)
          this.#skip(record, "empty-after-cleaning", `none of ${out.blocksTotal} blocks kept`);
        } else if (this.writeError === null) {
          const duplicate = out.dedupKeys === undefined ? null : (this.#parts.dedup?.check(out.dedupKeys, record) ?? null);
          if (duplicate !== null) {
            this.#skip(record, "duplicate", duplicate.detail, undefined, duplicate);
            continue;
          }
          const shown = shownRecord(record);
          const doc: CleanDocument = {
            url: shown.url,
            recordId: shown.recordId,
            date: record.date,
            contentType: record.contentType,
            charset: out.charset,
            title: out.title,
            blocks: out.blocks,
            blocksTotal: out.blocksTotal,
            comments: out.comments,
            source: shown.source,
            lang: out.lang,
            langScore: out.langScore,
            filterFailed: out.filterFailed,
            stats: out.stats as CleanDocument["stats"],
            metadata: out.metadata,
          };
          if (out.pii !== undefined && out.pii.emails + out.pii.ips > 0) {
            this.pii.documents++;
            this.pii.emails += out.pii.emails;
            this.pii.ips += out.pii.ips;
          }
          try {
            await writer.write(doc);
          } catch (error) {
            this.writeError = error;
          }
        }
      }
      this.#slots.release();
      const tally = this.#tallies[batch.input];
      tally.handled += records.length;
      tally.documents += writer.documentsWritten - written;
      this.#settle(batch.input);
      progress.documentsWritten = writer.documentsWritten;
      onProgress?.(progress);
    }
  }

  #skip(
    record: { source: string; offset: number; recordId: string; url: string },
    reason: CleanSkipReason,
    detail: string,
    failed?: { rule: string; value: number | string },
    duplicate?: { kind: string; of: string },
  ): void {
    this.skipped[reason]++;
    this.progress.skipped++;
    const shown = shownRecord(record);
    const line: RejectLine = { source: shown.source, offset: record.offset, recordId: shown.recordId, url: shown.url, reason, detail };
    if (failed !== undefined) {
      line.rule = failed.rule;
      line.value = failed.value;
    }
    if (duplicate !== undefined) {
      line.kind = duplicate.kind;
      line.duplicateOf = duplicate.of;
    }
    this.#parts.rejects?.write(line);
    if (this.#traceSkips) this.#parts.logger.debug(line, `skipped ${reason}: ${detail}`);
  }
}

/**
 * Whether a skipped event was a record. Bytes that could not be parsed as one ("corrupt"
 * without a record id, "unreadable") are not; nor is a whole file read as HTML (record id
 * `<file:PATH>`, see ArchiveRecord) that turned out not to be HTML or to be empty.
 */
function isRecordSkip(event: SkipEvent): boolean {
  if (event.reason === "unreadable" || event.recordId === "") return false;
  const wholeFile = event.recordId === `<file:${event.source}>`;
  return !(wholeFile && (event.reason === "not-html" || event.reason === "empty"));
}

/**
 * What a document or a rejects line may say of where a record came from: its input's URL
 * without secrets (@winnow/remote's redactUrl), and so the id and URL of a page read whole from
 * that URL, which are made of it.
 */
function shownRecord(record: { source: string; recordId: string; url: string }): { source: string; recordId: string; url: string } {
  const source = redactUrl(record.source);
  if (source === record.source) return record;
  return { source, recordId: record.recordId.replace(record.source, source), url: record.url === record.source ? source : record.url };
}
