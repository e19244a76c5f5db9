/**
 * What an earlier resumable run left beside an output: its manifest and the parts after the
 * first (out.part2.jsonl, ..., and the rejects' parts). A plain run over them would leave two
 * runs' documents side by side (`cat out*.jsonl` mixes them), so it refuses unless told which
 * way to go: --resume goes on with that run, --overwrite removes what it left, as its manifest
 * lists it.
 */
import { readFile, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { partPath } from "./manifest.js";

/**
 * The part numbers an earlier run's manifest names (parts committed, and parts runs started
 * but never committed): from 2 on, since part 1 is the output itself, which this run replaces.
 */
async function partNumbersIn(manifestPath: string): Promise<number[]> {
  const text = await readFile(manifestPath, "utf8");
  const numbers = new Set<number>();
  for (const line of text.split("\n")) {
    let entry: { type?: unknown; number?: unknown; part?: unknown };
    try {
      entry = JSON.parse(line);
    } catch {
      continue; // A torn last line names nothing.
    }
    if (entry?.type === "part" && typeof entry.number === "number") numbers.add(entry.number);
    if (entry?.type === "input" && typeof entry.part === "string") {
      const n = /\.part([1-9]\d*)\./.exec(entry.part)?.[1];
      if (n !== undefined) numbers.add(Number(n));
    }
  }
  return [...numbers].filter((n) => Number.isSafeInteger(n) && n >= 2).sort((a, b) => a - b);
}

/**
 * The manifest and the parts after the first that it names (of the output and of the rejects),
 * those that are there; [] when there is no manifest. Only these names are ever removed: the
 * manifest is the record of what the earlier runs wrote, and a part name is rebuilt from its
 * number (partPath), so no manifest line can point the removal anywhere else.
 */
export async function earlierRunFiles(output: string, rejects: string | undefined, manifestPath: string): Promise<string[]> {
  const isFile = (path: string): Promise<boolean> =>
    stat(path).then(
      (s) => s.isFile(),
      () => false,
    );
  if (!(await isFile(manifestPath))) return [];
  const found: string[] = [manifestPath];
  const numbers = await partNumbersIn(manifestPath).catch(() => [] as number[]);
  for (const path of [output, rejects]) {
    if (path === undefined || path === "-") continue;
    for (const n of numbers) {
      const part = partPath(path, n);
      // The manifest names its parts by file name in the output's folder.
      if (dirname(part) === dirname(path) && basename(part) !== basename(path) && (await isFile(part)))
        found.push(join(dirname(path), basename(part)));
    }
  }
  return found;
}

/** Removes them; a file already gone is no matter. */
export async function removeEarlierRunFiles(files: readonly string[]): Promise<void> {
  await Promise.all(
    files.map((file) =>
      unlink(file).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      }),
    ),
  );
}
