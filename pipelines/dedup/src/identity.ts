/**
 * Telling, in every task, that an input is still the file the earlier tasks read. The plan
 * records each input's size and modification time (from the listing's own stat, so a plan of
 * 100,000 inputs costs no reading, even when many array tasks start at once and each makes
 * one); the signature task, which reads the whole input anyway, adds an XXH3-64 of its bytes
 * (the whole file up to 2 MiB, else its first and last MiB) to its done marker. Every later task
 * that reads the input checks all three before it reads and again after. The passes also address
 * documents by row and key (rows.ts), so a change this misses is still caught by the filter pass,
 * row by row.
 */
import { open, stat } from "node:fs/promises";
import { hashOf } from "@winnow/dedup";
import { InputError, systemReason } from "@winnow/errors";

const WHOLE_UP_TO = 2 << 20;
const END_BYTES = 1 << 20;

/** What the plan records of an input. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

/** The stamp and content hash of an input as it is now. */
export interface InputIdentity extends FileStamp {
  /** XXH3-64, 16 hex digits, of the whole file up to 2 MiB, else of its first and last MiB. */
  hash: string;
}

export async function identityOf(path: string): Promise<InputIdentity> {
  try {
    const st = await stat(path);
    const file = await open(path, "r");
    try {
      const whole = st.size <= WHOLE_UP_TO;
      const bytes = Buffer.alloc(whole ? st.size : 2 * END_BYTES);
      await readFully(file, bytes, 0, whole ? st.size : END_BYTES, 0);
      if (!whole) await readFully(file, bytes, END_BYTES, END_BYTES, st.size - END_BYTES);
      return { size: st.size, mtimeMs: st.mtimeMs, hash: hashOf(bytes).toString(16).padStart(16, "0") };
    } finally {
      await file.close();
    }
  } catch (error) {
    throw new InputError(`cannot read input: ${systemReason(error)}`, path, { cause: error });
  }
}

async function readFully(
  file: Awaited<ReturnType<typeof open>>,
  into: Buffer,
  at: number,
  length: number,
  position: number,
): Promise<void> {
  let got = 0;
  while (got < length) {
    const { bytesRead } = await file.read(into, at + got, length - got, position + got);
    if (bytesRead === 0) throw Object.assign(new Error("the file got shorter while it was read"), { code: "ESHORT" });
    got += bytesRead;
  }
}

/**
 * The input's identity now, after checking it against the plan's stamp and, when one is known
 * (after the signature task), its content hash. Throws an InputError (exit 3) naming the input
 * and what changed.
 */
export async function checkIdentity(path: string, planned: FileStamp, hash?: string): Promise<InputIdentity> {
  const now = await identityOf(path);
  const changed: string[] = [];
  if (now.size !== planned.size) changed.push(`size ${planned.size} -> ${now.size} bytes`);
  if (now.mtimeMs !== planned.mtimeMs)
    changed.push(`modified ${new Date(planned.mtimeMs).toISOString()} -> ${new Date(now.mtimeMs).toISOString()}`);
  if (hash !== undefined && now.hash !== hash) changed.push("content hash differs");
  if (changed.length === 0) return now;
  throw new InputError(
    `this input changed since the dedup plan was made (${changed.join(", ")}); the state folder's files no longer describe it: ` +
      "start again with a new --state (or remove it), or put back the file as it was (a copy keeps its modification time with cp -p or rsync -t)",
    path,
  );
}
