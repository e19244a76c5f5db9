/**
 * What the plan records of each input to tell, in every later task, that it is still the file
 * the earlier tasks read: its size, modification time and an XXH3-64 of its bytes (the whole
 * file up to 1 MiB, else its first and last 64 KiB, so the check costs at most 1 MiB of reading
 * per input and task). The passes address documents by row and key (rows.ts), so a file that
 * changed and slipped past this check is still caught by the filter pass, row by row.
 */
import { open, stat } from "node:fs/promises";
import { hashBytes } from "@winnow/dedup";
import { InputError, systemReason } from "@winnow/errors";

const WHOLE_UP_TO = 1 << 20;
const END_BYTES = 64 << 10;

export interface InputIdentity {
  size: number;
  mtimeMs: number;
  /** XXH3-64, 16 hex digits, of the whole file up to 1 MiB, else of its first and last 64 KiB. */
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
      return { size: st.size, mtimeMs: st.mtimeMs, hash: hashBytes(bytes).toString(16).padStart(16, "0") };
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

/** Throws an InputError (exit 3) naming the input and what changed, when it is not the file the plan recorded. */
export async function checkIdentity(path: string, recorded: InputIdentity): Promise<void> {
  const now = await identityOf(path);
  const changed: string[] = [];
  if (now.size !== recorded.size) changed.push(`size ${recorded.size} -> ${now.size} bytes`);
  if (now.mtimeMs !== recorded.mtimeMs)
    changed.push(`modified ${new Date(recorded.mtimeMs).toISOString()} -> ${new Date(now.mtimeMs).toISOString()}`);
  if (now.hash !== recorded.hash) changed.push("content hash differs");
  if (changed.length === 0) return;
  throw new InputError(
    `this input changed since the dedup plan was made (${changed.join(", ")}); the state folder's files no longer describe it: ` +
      "start again with a new --state (or remove it), or put back the file as it was (a copy keeps its modification time with cp -p or rsync -t)",
    path,
  );
}
