/**
 * What an earlier resumable run left beside an output: its manifest and the parts after the
 * first (out.part2.jsonl, ..., and the rejects' parts). A plain run over them would leave two
 * runs' documents side by side (`cat out*.jsonl` mixes them), so it refuses unless told which
 * way to go: --resume goes on with that run, --overwrite removes what it left.
 */
import { readdir, stat, unlink } from "node:fs/promises";
import { basename, dirname, extname, join } from "node:path";

/** `out.part2.jsonl`, `out.part3.jsonl.gz`, ... beside `out.jsonl` / `out.jsonl.gz`: the names partPath gives. */
function partPattern(output: string): RegExp {
  const gz = /\.gz$/i.test(output) ? output.slice(-3) : "";
  const name = basename(output.slice(0, output.length - gz.length));
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  const quote = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${quote(stem)}\\.part[1-9]\\d*${quote(ext)}${quote(gz)}$`);
}

/** The manifest and the part files found beside `output` and `rejects`, sorted; [] when none. */
export async function earlierRunFiles(output: string, rejects: string | undefined, manifestPath: string): Promise<string[]> {
  const found: string[] = [];
  const isFile = (path: string): Promise<boolean> =>
    stat(path).then(
      (s) => s.isFile(),
      () => false,
    );
  if (await isFile(manifestPath)) found.push(manifestPath);
  for (const path of [output, rejects]) {
    if (path === undefined || path === "-") continue;
    const dir = dirname(path);
    const pattern = partPattern(path);
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names.filter((n) => pattern.test(n)).sort()) found.push(join(dir, name));
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
