// A static HTTP server on 127.0.0.1 for the end-to-end tests, that serves files as an object store
// does (ETag, Range, If-Match, 416 past the end) and misbehaves on cue: the n-th whole-file GET of
// a path can answer 500, drop the connection mid-body, stall mid-body, hold mid-body until the
// client goes away (so a test can kill a task that is surely mid-input), or wait for a second
// request of the same path (so two tasks surely read it at once). Range requests, the resumes
// after a fault, are always answered well.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type Fault =
  | { kind: "error-500" }
  | { kind: "drop" }
  | { kind: "stall"; ms: number }
  /** Sends half the body and then nothing, until the client closes the connection. */
  | { kind: "hold" }
  /** Waits (at most `ms`) until another whole-file GET of the path is open too, then serves both. */
  | { kind: "pair"; ms: number };

export interface MisbehavingServer {
  /** http://127.0.0.1:PORT/ */
  base: string;
  /** Every fault played, in order: "/seg/part-02.warc.gz 500". */
  played: string[];
  /** Resolves when a "hold" fault of `path` has sent its half body. */
  held(path: string): Promise<void>;
  /** Whether a "pair" fault of `path` met its second request (false: it waited out its time). */
  paired(path: string): boolean | undefined;
  /** Whole-file GETs of `path` so far (Range requests that resume a read and HEADs not counted). */
  reads(path: string): number;
  close(): Promise<void>;
}

/**
 * Serves `files` (URL path -> bytes); `faults` gives, per path, what its first, second, …
 * whole-file GET does (undefined: served well).
 */
export async function startMisbehavingServer(
  files: ReadonlyMap<string, Buffer>,
  faults: ReadonlyMap<string, ReadonlyArray<Fault | undefined>>,
): Promise<MisbehavingServer> {
  /** Whole-file GETs per path so far (Range requests and HEADs not counted): which fault is next. */
  const gets = new Map<string, number>();
  const played: string[] = [];
  const holds = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  const pairing = new Map<string, Set<() => void>>();
  const pairs = new Map<string, boolean>();
  const etag = (path: string): string => `"${path.length}-${files.get(path)?.length}"`;

  const holdFor = (path: string) => {
    let entry = holds.get(path);
    if (entry === undefined) {
      let resolve = () => {};
      const promise = new Promise<void>((r) => (resolve = r));
      entry = { promise, resolve };
      holds.set(path, entry);
    }
    return entry;
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const body = files.get(path);
    if (body === undefined || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404).end();
      return;
    }
    const headers = { etag: etag(path), "accept-ranges": "bytes", "content-type": "application/octet-stream" };
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
    if (range !== null) {
      const from = Number(range[1]);
      if (req.headers["if-match"] !== undefined && req.headers["if-match"] !== headers.etag) {
        res.writeHead(412).end();
      } else if (from >= body.length) {
        res.writeHead(416, { "content-range": `bytes */${body.length}` }).end();
      } else {
        const part = body.subarray(from);
        res.writeHead(206, {
          ...headers,
          "content-length": part.length,
          "content-range": `bytes ${from}-${body.length - 1}/${body.length}`,
        });
        res.end(req.method === "HEAD" ? undefined : part);
      }
      return;
    }
    if (req.method === "HEAD") {
      res.writeHead(200, { ...headers, "content-length": body.length }).end();
      return;
    }
    const n = gets.get(path) ?? 0;
    gets.set(path, n + 1);
    const fault = faults.get(path)?.[n];
    if (fault !== undefined) played.push(`${path} ${fault.kind}`);
    const half = body.subarray(0, body.length >> 1);
    const rest = body.subarray(body.length >> 1);
    switch (fault?.kind) {
      case "error-500":
        res.writeHead(500).end("injected failure");
        return;
      case "drop":
        res.writeHead(200, { ...headers, "content-length": body.length });
        res.write(half, () => setTimeout(() => res.socket?.destroy(), 20));
        return;
      case "stall":
        res.writeHead(200, { ...headers, "content-length": body.length });
        res.write(half);
        await new Promise((resolve) => setTimeout(resolve, fault.ms));
        res.end(rest);
        return;
      case "hold":
        res.writeHead(200, { ...headers, "content-length": body.length });
        res.write(half, () => holdFor(path).resolve());
        return;
      case "pair": {
        const waiting = pairing.get(path) ?? new Set<() => void>();
        pairing.set(path, waiting);
        if (waiting.size > 0) {
          pairs.set(path, true);
          for (const release of waiting) release();
          waiting.clear();
        } else {
          // Only an open request counts: a client that gave up (a timeout of its own) is no pair.
          await new Promise<void>((resolve) => {
            const timer = setTimeout(() => {
              if (!pairs.has(path)) pairs.set(path, false);
              resolve();
            }, fault.ms);
            const release = () => {
              clearTimeout(timer);
              resolve();
            };
            waiting.add(release);
            req.socket.once("close", () => waiting.delete(release));
          });
        }
        break;
      }
    }
    res.writeHead(200, { ...headers, "content-length": body.length }).end(body);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.socket?.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/`,
    played,
    held: (path) => holdFor(path).promise,
    paired: (path) => pairs.get(path),
    reads: (path) => gets.get(path) ?? 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
