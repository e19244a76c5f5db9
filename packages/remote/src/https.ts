/**
 * http:// and https:// inputs through node:http(s), as resumable streams. Not fetch: fetch
 * refuses URLs with a user and password, and undoes a Content-Encoding itself, so the bytes it
 * hands on are not the bytes a Range request counts. Here every request asks for the bytes as
 * stored (Accept-Encoding: identity); a server that sends an encoding all the same (an object
 * stored with Content-Encoding: gzip) is resumed at the offset of the encoded bytes received,
 * and the encoding is undone over the whole stream, once.
 */
import { type IncomingMessage, request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable, type Transform } from "node:stream";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { OpenedInput } from "@winnow/archive";
import { openResumable, type RangeRequest, type RangeResponse, Retryable, type ResumableOptions } from "./resumable.js";
import { retryAfterMs } from "./retry.js";

/** Statuses worth waiting out: throttling and passing server trouble. */
const RETRY_STATUS = new Set([408, 429, 500, 502, 503, 504]);
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 10;

/** Content-Encodings undone here, and how. */
const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: createGunzip,
  "x-gzip": createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

export async function openHttps(
  url: string,
  options: ResumableOptions,
  onProgress: ((bytes: number) => void) | undefined,
  onError: (err: unknown) => void,
): Promise<OpenedInput> {
  // A body cut short is reported once, by whichever layer sees it first.
  let reported = false;
  const report = (err: unknown) => {
    if (reported) return;
    reported = true;
    onError(err);
  };
  const encoding: Encoding = { name: null };
  const opened = await openResumable(url, httpRange(url, encoding), options, onProgress, report);
  if (encoding.name === null) return opened;
  return { ...opened, chunks: decoded(opened.chunks, encoding.name, report) };
}

/** The Content-Encoding of the first answer, which every later answer must repeat. */
interface Encoding {
  name: string | null;
}

function httpRange(url: string, encoding: Encoding): RangeRequest {
  // Later requests must read the same object: a changed one fails (412) rather than splice two.
  let etag: string | null = null;
  return async (from, signal) => {
    const headers: Record<string, string> = { "accept-encoding": "identity" };
    if (from > 0) headers.range = `bytes=${from}-`;
    if (from > 0 && etag !== null) headers["if-match"] = etag;
    const response = await follow(new URL(url), headers, signal);
    const status = response.statusCode ?? 0;
    if (status === 416 && from > 0) {
      response.destroy();
      return "end";
    }
    if (RETRY_STATUS.has(status)) {
      response.destroy();
      throw new Retryable(`HTTP ${status}`, retryAfterMs(header(response, "retry-after")));
    }
    if (status === 412) {
      response.destroy();
      throw new Error("the object changed while it was read (ETag no longer matches)");
    }
    if (status !== 200 && status !== 206) {
      response.destroy();
      throw new Error(`HTTP ${status}${response.statusMessage ? ` ${response.statusMessage}` : ""}`);
    }
    const sent = contentEncoding(response);
    if (from === 0) {
      etag = weakless(header(response, "etag"));
      encoding.name = sent;
    } else if (sent !== encoding.name) {
      response.destroy();
      throw new Error(
        `the server changed the body's Content-Encoding from ${encoding.name ?? "none"} to ${sent ?? "none"} between requests`,
      );
    }
    if (sent !== null && DECODERS[sent] === undefined) {
      response.destroy();
      throw new Error(`the server sent the body with Content-Encoding ${sent}, which winnow cannot undo`);
    }
    let skip = 0;
    if (status === 206) {
      const start = /^bytes (\d+)-/.exec(header(response, "content-range") ?? "");
      if (start === null || Number(start[1]) !== from) {
        response.destroy();
        throw new Error(`the server answered a request for bytes ${from}- with ${header(response, "content-range") ?? "no Content-Range"}`);
      }
    } else {
      skip = from;
    }
    const result: RangeResponse = {
      body: response,
      skip,
      ranged: status === 206 || header(response, "accept-ranges") === "bytes",
      size: sizeOf(response, status),
      mtime: dateOf(header(response, "last-modified")),
      cancel: () => response.destroy(),
    };
    return result;
  };
}

/** GETs `url`, following redirects; a failed connection is Retryable. */
async function follow(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<IncomingMessage> {
  let target = url;
  for (let hops = 0; ; hops++) {
    const response = await get(target, headers, signal);
    const location = header(response, "location");
    if (!REDIRECT_STATUS.has(response.statusCode ?? 0) || location === undefined) return response;
    response.destroy();
    if (hops === MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
    // Credentials in the URL go to its own origin only: a Location names its own, or none.
    target = new URL(location, target);
  }
}

function get(url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<IncomingMessage> {
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    // A URL's user and password become Basic authentication (node:http's `auth`).
    const request = send(url, { headers, signal }, resolve);
    request.on("error", (error: NodeJS.ErrnoException) => {
      reject(signal.aborted ? error : new Retryable(`request failed: ${error.code ?? error.message}`));
    });
    request.end();
  });
}

/** The encoded stream with its Content-Encoding undone; a body that cannot be decoded to its end is reported and ends the stream. */
async function* decoded(raw: AsyncIterator<Buffer>, encoding: string, onError: (err: unknown) => void): AsyncGenerator<Buffer> {
  const decoder = DECODERS[encoding]();
  const source = Readable.from({ [Symbol.asyncIterator]: () => raw });
  source.on("error", (error) => decoder.destroy(error));
  source.pipe(decoder);
  try {
    for await (const chunk of decoder) yield chunk as Buffer;
  } catch (error) {
    onError(new Error(`the body's Content-Encoding ${encoding} cannot be undone: ${(error as Error).message}`, { cause: error }));
  } finally {
    source.destroy();
    decoder.destroy();
  }
}

function header(response: IncomingMessage, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function contentEncoding(response: IncomingMessage): string | null {
  const value = header(response, "content-encoding")?.trim().toLowerCase();
  return value === undefined || value === "" || value === "identity" ? null : value;
}

/** A weak ETag cannot be used with If-Match. */
function weakless(etag: string | undefined): string | null {
  return etag === undefined || etag.startsWith("W/") ? null : etag;
}

function sizeOf(response: IncomingMessage, status: number): number | undefined {
  const total = /\/(\d+)$/.exec(header(response, "content-range") ?? "");
  if (status === 206 && total !== null) return Number(total[1]);
  const length = header(response, "content-length");
  return status === 200 && length !== undefined ? Number(length) : undefined;
}

function dateOf(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}
