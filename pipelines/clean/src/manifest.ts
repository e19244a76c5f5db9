/**
 * The manifest of a resumable run (--resume): a JSON-lines file beside the output, appended to
 * and fsynced line by line, never rewritten.
 *
 * Why parts: the output is written under a temporary name and renamed when the run closes it,
 * so a run's documents appear all at once or (after a crash) not at all. Each run therefore
 * writes its own part, out.jsonl, then out.part2.jsonl, ..., and the manifest says what each
 * part holds:
 *
 *   {"type":"input", "run", "part", "path", "size", "mtimeMs", "complete", "records", "documents"}
 *       written as each input is done with, wholly ("complete") or up to a record boundary
 *       (the run was interrupted): its first `records` records are handled, in this part or
 *       an earlier one; `documents` of them were written to this part.
 *   {"type":"part", "run", "part", "number", "bytes", "documents", "interrupted", "settings"}
 *       written once the part is renamed into place: the run's commit. `settings` is what the
 *       part was made with (output-settings.ts): a run resumed with other settings is refused. Input lines of a run
 *       without one count for nothing (the run crashed, or could not write its output), and
 *       its part number goes to the next run, whose part replaces whatever that run left.
 *
 * A resumed run skips complete inputs and, in one that was cut short, reads past the records
 * already handled (the same bytes always give the same records), so the parts together hold
 * every document once.
 */
import { randomUUID } from "node:crypto";
import { open, readFile, stat, type FileHandle } from "node:fs/promises";
import { basename, dirname, extname, join, resolve } from "node:path";

export interface InputLine {
  type: "input";
  run: string;
  /** File name of the part, in the output's directory. */
  part: string;
  /** Absolute path of the input. */
  path: string;
  size: number;
  mtimeMs: number;
  /** Read to its end; otherwise its first `records` records were handled. */
  complete: boolean;
  /** Records handled, counted from the start of the input (earlier runs included). */
  records: number;
  /** Documents this run wrote from it. */
  documents: number;
}

export interface PartLine {
  type: "part";
  run: string;
  part: string;
  number: number;
  /** Size of the part once renamed into place, so a part replaced since is noticed. */
  bytes: number;
  documents: number;
  interrupted: boolean;
  /** What the part was made with (output-settings.ts); absent in manifests written before. */
  settings?: unknown;
}

/** What committed runs did with one input. */
export interface InputState {
  complete: boolean;
  records: number;
  size: number;
  mtimeMs: number;
}

export interface ManifestState {
  /** By absolute input path. */
  inputs: Map<string, InputState>;
  /** Committed parts, oldest first. */
  parts: PartLine[];
  /** The part number the next run writes. */
  nextPart: number;
}

/** The run cannot be resumed: a part the manifest lists is gone or was replaced, or the run is not resumable. */
export class ResumeProblem extends Error {
  override readonly name = "ResumeProblem";
}

export const manifestPathFor = (output: string): string => `${output}.manifest`;

/** out.jsonl → out.part2.jsonl; out.jsonl.gz → out.part2.jsonl.gz; part 1 is the output itself. */
export function partPath(output: string, part: number): string {
  if (part === 1) return output;
  const gz = /\.gz$/i.test(output) ? output.slice(-3) : "";
  const name = basename(output.slice(0, output.length - gz.length));
  const ext = extname(name);
  return join(dirname(output), `${name.slice(0, name.length - ext.length)}.part${part}${ext}${gz}`);
}

/** Reads a manifest; null when there is none. Lines that do not parse (a torn last line) are passed over. */
export async function readManifest(path: string): Promise<ManifestState | null> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  const lines: Array<InputLine | PartLine> = [];
  for (const line of text.split("\n")) {
    try {
      const entry = JSON.parse(line) as InputLine | PartLine;
      if (entry?.type === "input" || entry?.type === "part") lines.push(entry);
    } catch {
      // Only a crash in the middle of an append leaves one; that run is not committed anyway.
    }
  }
  const parts = lines.filter((l): l is PartLine => l.type === "part");
  const committed = new Set(parts.map((p) => p.run));
  const inputs = new Map<string, InputState>();
  for (const line of lines) {
    if (line.type !== "input" || !committed.has(line.run)) continue;
    const before = inputs.get(line.path);
    inputs.set(line.path, {
      complete: line.complete || before?.complete === true,
      records: Math.max(line.records, before?.records ?? 0),
      size: line.size,
      mtimeMs: line.mtimeMs,
    });
  }
  return { inputs, parts, nextPart: parts.reduce((n, p) => Math.max(n, p.number), 0) + 1 };
}

/** Throws ResumeProblem unless every committed part is where the manifest says, at its size. */
export async function checkParts(state: ManifestState, output: string): Promise<void> {
  for (const part of state.parts) {
    const path = join(dirname(output), part.part);
    const size = await stat(path).then(
      (s) => s.size,
      () => -1,
    );
    if (size === part.bytes) continue;
    throw new ResumeProblem(
      size < 0
        ? `${path}, written by an earlier run, is missing; --overwrite starts the run again from the beginning`
        : `${path} is not the file an earlier run wrote (${size} bytes, not ${part.bytes}); --overwrite starts the run again from the beginning`,
    );
  }
}

/** Appends lines to a manifest, each fsynced before the next is written. */
export class ManifestLog {
  readonly run = randomUUID();
  readonly #handle: FileHandle;
  /** The appends so far, chained so lines never interleave. */
  #tail: Promise<void> = Promise.resolve();
  #error: unknown = null;

  private constructor(handle: FileHandle) {
    this.#handle = handle;
  }

  static async open(path: string): Promise<ManifestLog> {
    const created = await stat(path).then(
      () => false,
      () => true,
    );
    const handle = await open(path, "a");
    // A new file's name is durable only once its directory is synced.
    if (created) await syncDirectory(dirname(resolve(path)));
    return new ManifestLog(handle);
  }

  /** Queues a line; a failure is kept and thrown by close(). */
  append(line: Omit<InputLine, "run"> | Omit<PartLine, "run">): Promise<void> {
    const text = `${JSON.stringify({ run: this.run, ...line })}\n`;
    this.#tail = this.#tail.then(async () => {
      if (this.#error !== null) return;
      try {
        await this.#handle.write(text);
        await this.#handle.sync();
      } catch (error) {
        this.#error = error;
      }
    });
    return this.#tail;
  }

  /** Waits for queued lines and closes; throws the first write failure. */
  async close(): Promise<void> {
    await this.#tail;
    await this.#handle.close().catch((error: unknown) => (this.#error ??= error));
    if (this.#error !== null) throw this.#error;
  }
}

/** Makes renames and creations in `dir` durable; a no-op where directories cannot be opened. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, "r").catch(() => null);
  if (handle === null) return;
  await handle.sync().catch(() => {});
  await handle.close().catch(() => {});
}
