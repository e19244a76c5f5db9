/**
 * The --rejects file: one JSON line per record that did not become a document, so a run's
 * losses can be inspected or the records re-extracted by offset.
 */
import type { WriteStream } from "node:fs";
import { open } from "node:fs/promises";

export interface RejectLine {
  source: string;
  offset: number;
  recordId: string;
  url: string;
  reason: string;
  detail: string;
}

export class RejectLog {
  readonly #stream: WriteStream;
  #error: Error | null = null;
  #full = false;

  private constructor(stream: WriteStream) {
    this.#stream = stream;
    stream.on("error", (error) => (this.#error ??= error));
    stream.on("drain", () => (this.#full = false));
  }

  /** Creates (or truncates) the file; rejects with the system error when it cannot. */
  static async open(path: string): Promise<RejectLog> {
    const handle = await open(path, "w");
    return new RejectLog(handle.createWriteStream());
  }

  write(line: RejectLine): void {
    const ok = this.#stream.write(
      `${JSON.stringify({
        source: line.source,
        offset: line.offset,
        record_id: line.recordId,
        url: line.url,
        reason: line.reason,
        detail: line.detail,
      })}\n`,
    );
    if (!ok) this.#full = true;
  }

  /** True while the file lags behind: producers should wait for drained() before reading on. */
  get full(): boolean {
    return this.#full;
  }

  drained(): Promise<void> {
    return this.#full && !this.#stream.closed ? this.#settled("drain") : Promise.resolve();
  }

  /** Flushes and closes; rejects with the first write error, if any. */
  async close(): Promise<void> {
    if (!this.#stream.closed) {
      const closed = this.#settled("close");
      this.#stream.end();
      await closed;
    }
    if (this.#error) throw this.#error;
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
