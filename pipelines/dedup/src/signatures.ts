/**
 * Pass 1, one task per input: each document's hashes, written to the state folder.
 *
 *   signatures/<i>.exact     the 64-bit exact hash of each row, in row order (random access)
 *   signatures/<i>.minhash   each row's MinHash signature, bands x rows 32-bit values
 *   signatures/<i>.band-<b>  (band key, input, row) entries in sorted runs, one file per band
 *   signatures/<i>.band-exact (exact hash, input, row) entries in sorted runs
 *   signatures/<i>.lines     (line hash, input, row) for each distinct line of each row
 *   signatures/<i>.ids       each row's id, one JSON string a line
 *   signatures/<i>.keys      each row's key (rows.ts' docKey), 64 bits, in row order
 *   signatures/<i>.json      rows, run lengths and the input's content hash; written last, it marks the task done
 *
 * Memory: one run per file being filled (DEFAULT_RUN_ENTRIES entries, 4 MiB each).
 * The input is checked against the plan's record of it before it is read and after.
 */
import { hashNormalized, lineHashes, MinHasher, normalizeText, RunWriter } from "@winnow/dedup";
import { AtomicFile, writeJson } from "./files.js";
import { checkIdentity } from "./identity.js";
import { type Plan, paths } from "./plan.js";
import { docKey, idOf, rowsOf, TextFieldCheck, textOf } from "./rows.js";

export interface SignatureMeta {
  rows: number;
  /** The input's content hash (identity.ts) when this task read it: later tasks check the input still has it. */
  hash: string;
  /** Run lengths of each sorted file, by its name ("band-exact", "band-0", "lines"). */
  runs: Record<string, number[]>;
  cpuMs: number;
}

export async function signaturesTask(plan: Plan, state: string, shard: number, runEntries?: number): Promise<SignatureMeta> {
  const cpu = process.cpuUsage();
  const planned = plan.inputs[shard];
  const input = planned.path;
  const { hash } = await checkIdentity(input, planned);
  const { kinds, minhash, textField } = plan.settings;
  const hasher = kinds.includes("minhash") ? new MinHasher(minhash) : null;
  const opened: AtomicFile[] = [];
  const file = async (what: string) => {
    const f = await AtomicFile.open(paths.sigFile(state, shard, what));
    opened.push(f);
    return f;
  };
  try {
    return await writeSignatures();
  } catch (error) {
    for (const f of opened) f.discard();
    throw error;
  }

  async function writeSignatures(): Promise<SignatureMeta> {
    const exact = await file("exact");
    const ids = await file("ids");
    const keys = await file("keys");
    const sigs = hasher === null ? null : await file("minhash");
    const sorted: Array<{ name: string; file: AtomicFile; writer: RunWriter }> = [];
    const sortedFile = async (name: string) => {
      const f = await file(name);
      const entry = { name, file: f, writer: new RunWriter(f.fd, runEntries) };
      sorted.push(entry);
      return entry.writer;
    };
    const exactRuns = kinds.includes("exact") ? await sortedFile("band-exact") : null;
    const bandRuns: RunWriter[] = [];
    if (hasher !== null) for (let b = 0; b < minhash.bands; b++) bandRuns.push(await sortedFile(`band-${b}`));
    const lineRuns = kinds.includes("lines") ? await sortedFile("lines") : null;

    const hash8 = Buffer.alloc(8);
    const fieldCheck = new TextFieldCheck(textField);
    const emptySig = hasher === null ? null : Buffer.alloc(4 * hasher.hashes, 0xff);
    let row = 0;
    for await (const doc of rowsOf(input)) {
      fieldCheck.see(doc);
      const text = textOf(doc, textField);
      const norm = normalizeText(text);
      const h = hashNormalized(norm);
      hash8.writeBigUInt64LE(h);
      exact.write(Buffer.from(hash8));
      ids.write(`${JSON.stringify(idOf(doc, input, row))}\n`);
      hash8.writeBigUInt64LE(docKey(doc, input, row, textField));
      keys.write(Buffer.from(hash8));
      if (norm !== "") exactRuns?.add(h, shard, row);
      if (hasher !== null && sigs !== null) {
        const sig = hasher.signatureOfNormalized(norm);
        if (sig === null) {
          sigs.write(emptySig as Buffer);
        } else {
          sigs.write(Buffer.from(sig.buffer, sig.byteOffset, sig.byteLength));
          const keys = hasher.bandKeys(sig);
          for (let b = 0; b < keys.length; b++) bandRuns[b].add(keys[b], shard, row);
        }
      }
      if (lineRuns !== null) for (const lh of lineHashes(text)) lineRuns.add(lh, shard, row);
      row++;
    }
    fieldCheck.check(input);
    await checkIdentity(input, planned, hash);
    const runs: Record<string, number[]> = {};
    for (const s of sorted) {
      s.writer.finish();
      s.file.finish();
      runs[s.name] = s.writer.runs;
    }
    exact.finish();
    ids.finish();
    keys.finish();
    sigs?.finish();
    const used = process.cpuUsage(cpu);
    const meta: SignatureMeta = { rows: row, hash, runs, cpuMs: (used.user + used.system) / 1000 };
    await writeJson(paths.sigMeta(state, shard), meta);
    return meta;
  }
}
