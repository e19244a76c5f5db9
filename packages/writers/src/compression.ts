/**
 * Compression of stream outputs, chosen by the name: ".gz" is gzip (node:zlib), ".zst" is
 * Zstandard. Node 20's zlib has no zstd (it came in Node 22.15), so zstd-napi (Apache-2.0) does
 * it: a Node-API binding of the reference C library whose install compiles that library from the
 * source it ships when no prebuilt binary can be fetched, so `npm ci` works offline. Its
 * CompressStream runs on the calling thread, at zstd's level 3 (its default: better ratio than
 * gzip -4 and several times its speed).
 */
import type { Transform } from "node:stream";
import { createGzip } from "node:zlib";
import { CompressStream } from "zstd-napi";
import { GZIP_LEVEL } from "./util.js";

export type Compression = "gzip" | "zstd";

/** Zstandard's default level: its own trade of ratio against speed. */
export const ZSTD_LEVEL = 3;

/** The compression a file name asks for: ".gz" gzip, ".zst" zstd, otherwise none. */
export function compressionFor(path: string): Compression | null {
  const name = path.toLowerCase();
  if (name.endsWith(".gz")) return "gzip";
  if (name.endsWith(".zst")) return "zstd";
  return null;
}

/** The name without its compression suffix: "out.jsonl.zst" → "out.jsonl". */
export function withoutCompressionSuffix(path: string): string {
  return path.replace(/\.(gz|zst)$/i, "");
}

/**
 * A compressing stream. zlib streams take Transform options too (Node passes them through;
 * @types/node omits them): a writable buffer as large as the file's lets encoding overlap
 * compression on the thread pool.
 */
export function createCompressor(kind: Compression, highWaterMark: number): Transform {
  if (kind === "gzip") return createGzip({ level: GZIP_LEVEL, highWaterMark } as object);
  return new CompressStream({ compressionLevel: ZSTD_LEVEL });
}
