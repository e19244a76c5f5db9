/**
 * Paths lists: one input per line, as Common Crawl's warc.paths.gz, plain or gzip. Relative
 * lines are joined to a base (a URL or a folder), so the same list serves https://, s3:// and a
 * local mirror.
 */
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { InputError, systemReason } from "@winnow/errors";

/** One input of a list: where to read it, and the name it was listed under (for naming its output). */
export interface ListedInput {
  /** What to open: a URL (https://, s3://) or a local path. */
  location: string;
  /** The line as listed: a relative path, or the location itself when the line was absolute. */
  listed: string;
  /** Its place in the whole list (0-based), the same in every task. */
  index: number;
}

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

/** Reads a paths list; blank lines and lines starting with "#" are passed over. Throws InputError naming the file. */
export async function readPathsList(file: string, baseUrl?: string): Promise<ListedInput[]> {
  let gzipped: boolean;
  try {
    const handle = await open(file, "r");
    const head = Buffer.alloc(2);
    await handle.read(head, 0, 2, 0).finally(() => handle.close());
    gzipped = head.equals(GZIP_MAGIC);
  } catch (error) {
    throw new InputError(`cannot read the paths list: ${systemReason(error)}`, file, { cause: error });
  }
  const bytes = createReadStream(file);
  const text: Readable = gzipped ? bytes.pipe(createGunzip()) : bytes;
  if (gzipped) bytes.on("error", (error) => text.destroy(error));
  const inputs: ListedInput[] = [];
  try {
    for await (const raw of createInterface({ input: text, crlfDelay: Number.POSITIVE_INFINITY })) {
      const line = raw.trim();
      if (line === "" || line.startsWith("#")) continue;
      inputs.push({ location: joinBase(line, baseUrl), listed: line, index: inputs.length });
    }
  } catch (error) {
    throw new InputError(`cannot read the paths list: ${systemReason(error)}`, file, { cause: error });
  }
  return inputs;
}

/** "https://x/", "s3://b/", "/data/" and the like. */
const ABSOLUTE = /^([a-z][a-z0-9+.-]*:\/\/|\/)/i;

/** A relative line joined to the base; absolute lines (URLs, /paths) are kept as they are. */
export function joinBase(line: string, baseUrl: string | undefined): string {
  if (baseUrl === undefined || baseUrl === "" || ABSOLUTE.test(line)) return line;
  return `${baseUrl.replace(/\/+$/, "")}/${line.replace(/^(\.\/)+/, "")}`;
}
