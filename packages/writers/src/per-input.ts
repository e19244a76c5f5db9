/**
 * One output per input, for sharded runs: each input's output is named from the input (so every
 * run and every task names it the same), written under a name no other process uses, renamed
 * onto its final name when complete, and followed by a done marker. A re-run skips inputs with
 * a marker; two tasks given the same input each rename a complete output into place, so
 * whichever lands last, the file is whole.
 */
import { randomBytes } from "node:crypto";
import { access, mkdir, readdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { isAlive } from "./util.js";

/** Archive and HTML suffixes taken off an input's name before the output's is put on. */
const INPUT_SUFFIX = /\.(warc|arc|html?|jsonl?|txt)?(\.(gz|zst|bz2))?$/i;

/**
 * The output's path relative to the output folder: the input as listed (a paths-list line, the
 * key of an s3:// URL, the path of an https:// one, a local path), without its scheme, host,
 * leading "/" or "." and ".." parts, and with `suffix` for its archive suffix:
 * "crawl-data/CC-MAIN-2024-10/…/x.warc.gz" → "crawl-data/CC-MAIN-2024-10/…/x.jsonl.gz".
 */
export function perInputName(listed: string, suffix: string): string {
  let path = listed;
  const url = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/[^?#]*)?/i.exec(listed);
  if (url !== null) {
    path = url[1] ?? "";
    try {
      path = decodeURIComponent(path);
    } catch {
      // Keep a path that is not valid percent-encoding as it is.
    }
  }
  const parts = path.split(/[/\\]+/).filter((p) => p !== "" && p !== "." && p !== "..");
  if (parts.length === 0) parts.push("input");
  const last = parts.length - 1;
  parts[last] = (parts[last].replace(INPUT_SUFFIX, "") || "input") + suffix;
  return parts.join("/");
}

/** The done marker of an output: written after the output is complete and in place. */
export function doneMarkerPath(output: string): string {
  return `${output}.done`;
}

export async function isDone(output: string): Promise<boolean> {
  return access(doneMarkerPath(output)).then(
    () => true,
    () => false,
  );
}

/**
 * What `output`'s done marker says: its JSON object, {} for a marker that holds none (an
 * older or damaged one still marks the output done), null where there is no marker.
 */
export async function readDoneMarker(output: string): Promise<Record<string, unknown> | null> {
  let text: string;
  try {
    text = await readFile(doneMarkerPath(output), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  return doneMarkerInfo(text);
}

/** A done marker's text as its JSON object; {} where it holds none. */
export function doneMarkerInfo(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * A name beside `output` that no other process, on this machine or another sharing the folder,
 * will use: host, pid and random bytes. It keeps the output's suffixes, so its format and
 * compression go by the same name rules.
 */
export function stagingPathFor(output: string): string {
  const tag = `${thisHost()}-${process.pid}-${randomBytes(4).toString("hex")}`;
  return join(dirname(output), `.${basename(output)}.${tag}.staging${basename(output).replace(/^[^.]*/, "")}`);
}

/** Renames a complete staged output onto its final name and writes its done marker (JSON: `info`). */
export async function commitOutput(staged: string, output: string, info: Readonly<Record<string, unknown>>): Promise<void> {
  await rename(staged, output);
  const marker = doneMarkerPath(output);
  const temporary = stagingPathFor(marker);
  await writeFile(temporary, `${JSON.stringify(info)}\n`, { flush: true });
  await rename(temporary, marker);
}

/** Creates the folder an output goes in. */
export async function createFolderFor(output: string): Promise<void> {
  await mkdir(dirname(output), { recursive: true });
}

/** Removes a staged output that will not be committed; missing is fine. */
export async function dropStaged(staged: string): Promise<void> {
  await unlink(staged).catch(() => {});
}

function thisHost(): string {
  return hostname().replace(/[^A-Za-z0-9-]/g, "_");
}

/**
 * Removes outputs that tasks on this machine, now dead, staged beside `output` and never
 * committed (killed mid-write), and the temporary files their writers left. Those of other machines are left: whether their task is still
 * running cannot be told from here. Returns the paths removed.
 */
export async function removeStaleStaged(output: string): Promise<string[]> {
  const dir = dirname(output);
  const prefix = `.${basename(output)}.${thisHost()}-`;
  const removed: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    // The staged file, or the temporary file a writer of it was writing (`.` + its name + `.tmp-…`).
    const rest = name.startsWith(prefix) ? name.slice(prefix.length) : name.startsWith(`.${prefix}`) ? name.slice(prefix.length + 1) : null;
    const pid = rest !== null && name.includes(".staging") ? /^(\d+)-/.exec(rest)?.[1] : undefined;
    if (pid === undefined || Number(pid) === process.pid || isAlive(Number(pid))) continue;
    if (
      await unlink(join(dir, name)).then(
        () => true,
        () => false,
      )
    )
      removed.push(join(dir, name));
  }
  return removed;
}
