/**
 * The --rejects file: one JSON line per record that failed to become a document (routine skips
 * such as request records only with `all`, see ROUTINE_SKIP_REASONS), so a run's losses can be
 * inspected or the records re-extracted by offset. Written like the corpus: under
 * a temporary name renamed into place when the run closes it, or straight into standard output
 * ("-"), a device or a FIFO (see @winnow/writers' output-path.ts).
 */
import { rename, unlink } from "node:fs/promises";
import type { Writable } from "node:stream";
import { type OpenedOutput, openOutput, type OutputRole, prepareOutput } from "@winnow/writers";
import { ROUTINE_SKIP_REASONS, type CleanSkipReason } from "./summary.js";

export const REJECTS_ROLE: OutputRole = { what: "rejects file", flag: "--rejects", stdout: true };

export interface RejectLine {
  source: string;
  offset: number;
  recordId: string;
  url: string;
  reason: CleanSkipReason;
  detail: string;
  /** For "language" and "filter": the first rule the document failed, and its value. */
  rule?: string;
  value?: number | string;
  /** For "duplicate": exact or near, and the record id of the document kept in its place. */
  kind?: string;
  duplicateOf?: string;
}

export class RejectLog {
  readonly #stream: Writable;
  readonly #output: OpenedOutput;
  readonly #all: boolean;
  #error: Error | null = null;
  #full = false;
  #finishing: Promise<void> | null = null;
  readonly #onError = (error: Error): void => {
    this.#error ??= error;
  };
  readonly #onDrain = (): void => {
    this.#full = false;
  };

  private constructor(output: OpenedOutput, all: boolean) {
    this.#output = output;
    this.#all = all;
    this.#stream = output.sink;
    this.#stream.on("error", this.#onError);
    this.#stream.on("drain", this.#onDrain);
  }

  /**
   * Opens the log; rejects with an OutputError (or a UsageError) naming the path when it cannot.
   * `all`: routine skips (ROUTINE_SKIP_REASONS) are written too.
   */
  static async open(path: string, all = false): Promise<RejectLog> {
    const target = await prepareOutput(path, REJECTS_ROLE);
    return new RejectLog(await openOutput(target, REJECTS_ROLE, { flush: true }), all);
  }

  write(line: RejectLine): void {
    if (!this.#all && ROUTINE_SKIP_REASONS.has(line.reason)) return;
    const ok = this.#stream.write(
      `${JSON.stringify({
        source: line.source,
        offset: line.offset,
        record_id: line.recordId,
        url: line.url,
        reason: line.reason,
        detail: line.detail,
        ...(line.rule === undefined ? {} : { rule: line.rule, value: line.value }),
        ...(line.duplicateOf === undefined ? {} : { kind: line.kind, duplicate_of: line.duplicateOf }),
      })}\n`,
    );
    if (!ok) this.#full = true;
  }

  /** True while the file lags behind: producers should wait for drained() before reading on. */
  get full(): boolean {
    return this.#full;
  }

  drained(): Promise<void> {
    return this.#full && !this.#stream.closed && this.#error === null ? this.#settled("drain") : Promise.resolve();
  }

  /** Flushes and closes (renaming the file into place); rejects with the first write error, if any. */
  close(): Promise<void> {
    return (this.#finishing ??= this.#close());
  }

  async #close(): Promise<void> {
    const { owned, tmpPath, finalPath } = this.#output;
    if (!owned) {
      // Standard output is not ours to end: wait until what was written is handed over.
      if (this.#error === null) await new Promise<void>((resolve) => this.#stream.write("", () => resolve()));
      this.#stream.off("error", this.#onError).off("drain", this.#onDrain);
    } else if (!this.#stream.closed) {
      const closed = this.#settled("close");
      this.#stream.end();
      await closed;
    }
    if (this.#error === null && tmpPath !== null && finalPath !== null) {
      await rename(tmpPath, finalPath).catch((error: Error) => (this.#error = error));
    }
    if (this.#error !== null) {
      if (tmpPath !== null) await unlink(tmpPath).catch(() => {});
      throw this.#error;
    }
  }

  /** Drops the log: a temporary file is removed and nothing renamed; in place (stdout, a device), as close(). */
  discard(): Promise<void> {
    if (this.#output.tmpPath === null) return this.close().catch(() => {});
    return (this.#finishing ??= this.#discard());
  }

  async #discard(): Promise<void> {
    const tmpPath = this.#output.tmpPath as string;
    if (!this.#stream.closed) {
      const closed = this.#settled("close");
      this.#stream.destroy();
      await closed;
    }
    await unlink(tmpPath).catch(() => {});
  }

  /** Resolves on `event` or when the stream closes (an error closes it too). */
  #settled(event: "drain" | "close"): Promise<void> {
    const stream = this.#stream;
    return new Promise((resolve) => {
      const done = (): void => {
        stream.off(event, done).off("close", done);
        resolve();
      };
      stream.on(event, done).on("close", done);
    });
  }
}
