/**
 * Pass 4, one task per input: the input written again without its duplicates, and with line
 * dedup without the frequent lines (a document left with fewer than --min-words words drops).
 * Every dropped document, and every document that lost lines, gets a rejects line:
 *
 *   <output>/<input name>          the kept rows, as read, in JSONL (gzip or zstd by the name)
 *   filter/<i>.rejects.jsonl       reason "duplicate", the kind, and the id of the document kept
 *   filter/<i>.json                counts; written last, it marks the task done
 *
 * The input is checked against the plan's record of it before it is read and after, and every
 * row against the key the signature pass took of it (rows.ts' docKey): a row that is not the
 * document the earlier passes saw stops the task (InputError) before the output is in place, so
 * a changed input can never make it drop another document than the duplicate found.
 */
import { once } from "node:events";
import { createWriteStream, existsSync, readFileSync } from "node:fs";
import { mkdir, rename, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { removeLines, wordCount } from "@winnow/dedup";
import { InputError, OutputError, systemReason } from "@winnow/errors";
import { compressionFor, createCompressor, isParquetPath } from "@winnow/writers";
import type { DropLine } from "./clusters.js";
import { AtomicFile, readJson, tempOf, writeJson } from "./files.js";
import { checkIdentity } from "./identity.js";
import { type Plan, paths } from "./plan.js";
import { docKey, idOf, rowsOf, textOf } from "./rows.js";
import type { SignatureMeta } from "./signatures.js";

export interface FilterSummary {
  read: number;
  kept: number;
  exact: number;
  near: number;
  /** Dropped because line removal left fewer than min-words words. */
  short: number;
  /** Lines removed from kept documents. */
  linesRemoved: number;
  /** Kept documents that lost lines. */
  documentsEdited: number;
  cpuMs: number;
}

export interface DedupRejectLine {
  source: string;
  row: number;
  id: string;
  url: string;
  reason: "duplicate";
  kind: "exact" | "near" | "lines";
  /** The id of the document kept in its place (exact, near); null for lines. */
  duplicate_of: string | null;
  duplicate_of_source?: string;
  /** With kind "lines": lines removed, and whether the document was still written. */
  lines_removed?: number;
  kept?: boolean;
  detail: string;
}

export async function filterTask(plan: Plan, state: string, shard: number, outputDir: string): Promise<FilterSummary> {
  const cpu = process.cpuUsage();
  const planned = plan.inputs[shard];
  const input = planned.path;
  const { rows, hash } = readJson<SignatureMeta>(paths.sigMeta(state, shard));
  await checkIdentity(input, planned, hash);
  const { kinds, textField, minWords } = plan.settings;
  const keys = readFileSync(paths.sigFile(state, shard, "keys"));
  const drops = new Map<number, DropLine>();
  const clusterFile = paths.clusterShard(state, shard);
  for (const line of readFileSync(clusterFile, "utf8").split("\n")) {
    if (line === "") continue;
    const d = JSON.parse(line) as DropLine;
    drops.set(d.row, d);
  }
  const frequent = kinds.includes("lines") ? loadFrequent(paths.frequentLines(state)) : null;
  const isFrequent = frequent === null ? null : (h: bigint) => has(frequent, h);
  const outPath = join(outputDir, planned.name);
  const parquet = isParquetPath(input);
  const output = await openRowOutput(outPath);
  const rejects = await AtomicFile.open(paths.filterRejects(state, shard));
  const summary: FilterSummary = { read: 0, kept: 0, exact: 0, near: 0, short: 0, linesRemoved: 0, documentsEdited: 0, cpuMs: 0 };
  try {
    let row = 0;
    for await (const doc of rowsOf(input)) {
      const r = row++;
      summary.read++;
      const key = docKey(doc, input, r, textField);
      if (r >= rows) throw changedInput(input, `it has more than the ${rows} rows the signature pass read`);
      if (key !== keys.readBigUInt64LE(8 * r)) throw changedRow(input, r);
      const base = {
        source: input,
        row: r,
        id: idOf(doc, input, r),
        url: typeof doc.url === "string" ? doc.url : "",
        reason: "duplicate" as const,
      };
      const drop = drops.get(r);
      if (drop !== undefined && drop.key !== key.toString(16).padStart(16, "0")) throw changedRow(input, r);
      if (drop !== undefined) {
        summary[drop.kind]++;
        const reject: DedupRejectLine = {
          ...base,
          kind: drop.kind,
          duplicate_of: drop.of,
          duplicate_of_source: drop.of_input,
          detail: `${drop.kind === "exact" ? "same normalised text as" : "near duplicate of"} ${drop.of}`,
        };
        rejects.write(`${JSON.stringify(reject)}\n`);
        continue;
      }
      if (isFrequent !== null) {
        const text = textOf(doc, textField);
        const edit = removeLines(text, isFrequent);
        if (edit.removed > 0) {
          const words = wordCount(edit.text);
          const keep = words >= minWords;
          rejects.write(
            `${JSON.stringify({
              ...base,
              kind: "lines",
              duplicate_of: null,
              lines_removed: edit.removed,
              kept: keep,
              detail: `${edit.removed} of ${edit.lines} lines are in more than ${plan.settings.lineThreshold} documents; ${words} words left`,
            } satisfies DedupRejectLine)}\n`,
          );
          if (!keep) {
            summary.short++;
            continue;
          }
          summary.linesRemoved += edit.removed;
          summary.documentsEdited++;
          doc[textField] = edit.text;
        }
      }
      summary.kept++;
      await output.write(`${parquet ? JSON.stringify(doc, bigintAsNumber) : JSON.stringify(doc)}\n`);
    }
    if (row !== rows) throw changedInput(input, `it has ${row} rows, the signature pass read ${rows}`);
    await checkIdentity(input, planned, hash);
  } catch (error) {
    await output.discard();
    rejects.discard();
    throw error;
  }
  await output.close();
  rejects.finish();
  const used = process.cpuUsage(cpu);
  summary.cpuMs = (used.user + used.system) / 1000;
  await writeJson(paths.filterSummary(state, shard), summary);
  return summary;
}

function changedRow(input: string, row: number): InputError {
  return changedInput(input, `row ${row} is not the document the signature pass read there (its id or text differ)`);
}

function changedInput(input: string, what: string): InputError {
  return new InputError(
    `this input changed since the dedup plan was made: ${what}; nothing of it was written. Start again with a new --state (or remove it)`,
    input,
  );
}

/** Parquet's 64-bit integers come back as bigint, which JSON cannot write. */
function bigintAsNumber(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? Number(value) : value;
}

function loadFrequent(path: string): BigUint64Array {
  if (!existsSync(path)) return new BigUint64Array(0);
  const bytes = readFileSync(path);
  return new BigUint64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/** Binary search in the sorted hashes. */
function has(sorted: BigUint64Array, h: bigint): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = sorted[mid];
    if (v === h) return true;
    if (v < h) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

interface RowOutput {
  write(line: string): Promise<void>;
  close(): Promise<void>;
  discard(): Promise<void>;
}

/** A JSONL file under a temporary name, compressed by its name, renamed into place by close(). */
async function openRowOutput(path: string): Promise<RowOutput> {
  const tmp = tempOf(path);
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (error) {
    throw new OutputError(`cannot create the output folder: ${systemReason(error)}`, dirname(path), { cause: error });
  }
  const file = createWriteStream(tmp);
  const compression = compressionFor(path);
  let sink: Writable = file;
  if (compression !== null) {
    sink = createCompressor(compression, 1 << 20);
    sink.pipe(file);
  }
  let failure: unknown = null;
  const fail = (error: unknown) => {
    failure ??= error;
  };
  file.on("error", fail);
  sink.on("error", fail);
  const check = () => {
    if (failure !== null) throw new OutputError(`cannot write: ${systemReason(failure)}`, path, { cause: failure });
  };
  return {
    async write(line) {
      check();
      // events.once removes its listeners when either event comes (and rejects on "error").
      if (!sink.write(line)) await once(sink, "drain").catch(fail);
      check();
    },
    async close() {
      sink.end();
      await finished(file).catch(fail);
      check();
      await rename(tmp, path).catch((error: unknown) => {
        throw new OutputError(`cannot write: ${systemReason(error)}`, path, { cause: error });
      });
    },
    async discard() {
      sink.destroy();
      file.destroy();
      await unlink(tmp).catch(() => {});
    },
  };
}
