// `winnow clean` over remote inputs as a batch job sees them: a URL's secrets reach no output,
// an input cut short fails the run (exit 3) and leaves a per-input task undone, a stalled body
// is timed out and resumed, and s3:// inputs keep a JSON log JSON and fail at once without
// credentials. Local servers only (loopback): an HTTP server that misbehaves on purpose, s3rver.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWinnow, stderrMessages } from "../test/run-winnow.js";

const SAMPLE = fileURLToPath(new URL("../../../fixtures/sample.warc.gz", import.meta.url));
const DATA = readFileSync(SAMPLE);
const PAGE_DIR = fileURLToPath(new URL("../../../fixtures/wcxb-sample/html/", import.meta.url));
const PAGE = gunzipSync(readFileSync(join(PAGE_DIR, readdirSync(PAGE_DIR).sort()[0])));
const QUICK = ["--model", "heuristic", "--workers", "0", "--no-lang-id", "--log-level", "info"];
const FAST_RETRIES = ["--retries", "2", "--retry-delay", "1"];

// Secrets a URL may carry: the userinfo's user and password, a presigned URL's credential,
// session token and signature.
const USER = "alice-user-7f3a";
const PASSWORD = "pw-9c1e-secret";
const CREDENTIAL = "AKIDCRED4d2b";
const TOKEN = "SESSIONTOKEN8e5f";
const SIGNATURE = "deadbeefsig0a6c";
const SECRETS = [USER, PASSWORD, CREDENTIAL, TOKEN, SIGNATURE];
const PRESIGNED = `X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${CREDENTIAL}%2F20260101%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Security-Token=${TOKEN}&X-Amz-Signature=${SIGNATURE}`;

let dir: string;
let server: Server;
let origin: string;
/** Requests seen per path. */
const seen = new Map<string, number>();

function rangeStart(req: IncomingMessage): number {
  return Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? "")?.[1] ?? 0);
}

function honest(req: IncomingMessage, res: ServerResponse): void {
  const from = rangeStart(req);
  if (from >= DATA.length) return void res.writeHead(416).end();
  const headers = { "content-length": DATA.length - from, "accept-ranges": "bytes" };
  if (from > 0) res.writeHead(206, { ...headers, "content-range": `bytes ${from}-${DATA.length - 1}/${DATA.length}` });
  else res.writeHead(200, headers);
  res.end(DATA.subarray(from));
}

/** The head of a complete answer from `from`, then only `send` bytes, and the connection goes. */
function cut(req: IncomingMessage, from: number, send: number): void {
  const range = from > 0 ? `Content-Range: bytes ${from}-${DATA.length - 1}/${DATA.length}\r\n` : "";
  req.socket.write(
    `HTTP/1.1 ${from > 0 ? "206 Partial Content" : "200 OK"}\r\nContent-Length: ${DATA.length - from}\r\nAccept-Ranges: bytes\r\n${range}Connection: close\r\n\r\n`,
  );
  req.socket.end(DATA.subarray(from, from + send));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "winnow-remote-cli-"));
  server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const n = (seen.get(path) ?? 0) + 1;
    seen.set(path, n);
    const basic = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`;
    if (path.startsWith("/private/") && req.headers.authorization !== basic) return void res.writeHead(401).end();
    switch (path) {
      case "/private/sample.warc.gz":
      case "/sample.warc.gz":
        return honest(req, res);
      case "/private/page.html":
        // One page read whole: its record id and URL are made of the input's URL.
        return void res.writeHead(200, { "content-type": "text/html", "content-length": PAGE.length }).end(PAGE);
      case "/private/cut-then-down.warc.gz":
      case "/cut-then-down.warc.gz":
        // 60000 bytes, then the server stays down: the input is cut short after the retries.
        if (rangeStart(req) === 0) return cut(req, 0, 60_000);
        return void res.writeHead(503).end();
      case "/stall.warc.gz":
        // The first answer sends 40000 bytes and then nothing, its socket left open.
        if (n === 1) {
          req.socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${DATA.length}\r\nAccept-Ranges: bytes\r\n\r\n`);
          return void req.socket.write(DATA.subarray(0, 40_000));
        }
        return honest(req, res);
      default:
        return void res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** Every file under `root`, gzip undone, as text. */
function filesUnder(root: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of readdirSync(root, { recursive: true }) as string[]) {
    const path = join(root, name);
    if (!statSync(path).isFile()) continue;
    const bytes = readFileSync(path);
    found.set(path, (name.endsWith(".gz") ? gunzipSync(bytes) : bytes).toString("utf8"));
  }
  return found;
}

function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("a URL's secrets", () => {
  it("reach no log line, error, document, rejects line, manifest, done marker or summary", async () => {
    const work = mkdtempSync(join(dir, "secrets-"));
    const secret = (path: string) => `http://${USER}:${PASSWORD}@${origin}${path}?${PRESIGNED}`;
    const good = secret("/private/sample.warc.gz");
    const broken = secret("/private/cut-then-down.warc.gz");
    const missing = secret("/private/missing.warc.gz");
    const page = secret("/private/page.html");
    const runs = [
      // One output, resumable (a manifest), with rejects: the cut input fails the run.
      await runWinnow(
        [
          "clean",
          good,
          page,
          broken,
          "-o",
          "one.jsonl",
          "--resume",
          "--rejects",
          "rejects.jsonl",
          "--rejects-all",
          ...FAST_RETRIES,
          ...QUICK,
        ],
        work,
      ),
      // One output per input, done markers and rejects per input; one input cut, one missing.
      await runWinnow(["clean", "--per-input", good, broken, missing, "-o", "out", "--rejects", "rej", ...FAST_RETRIES, ...QUICK], work),
      // A URL that cannot be opened at all: the error that ends the run names it.
      await runWinnow(["clean", missing, "-o", "none.jsonl", ...FAST_RETRIES, ...QUICK], work),
    ];
    expect(runs.map((r) => r.code)).toEqual([3, 3, 3]);

    const files = filesUnder(work);
    expect([...files.keys()].map((p) => p.slice(work.length + 1)).sort()).toEqual(
      expect.arrayContaining(["one.jsonl.manifest", "rejects.jsonl", "out/private/sample.jsonl.gz", "out/private/sample.jsonl.gz.done"]),
    );
    const texts = [...runs.flatMap((r) => [r.stdout, r.stderr]), ...files.values()];
    for (const text of texts) for (const word of SECRETS) expect(text).not.toContain(word);

    // What is shown instead: the URL with its secrets replaced, each where it belongs.
    const shown = `http://REDACTED@${origin}/private/sample.warc.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=REDACTED&X-Amz-Security-Token=REDACTED&X-Amz-Signature=REDACTED`;
    const docs = jsonLines(files.get(join(work, "out/private/sample.jsonl.gz")) ?? "");
    expect(docs.length).toBeGreaterThan(10);
    expect(new Set(docs.map((d) => d.source))).toEqual(new Set([shown]));
    expect(JSON.parse(files.get(join(work, "out/private/sample.jsonl.gz.done")) ?? "{}")).toMatchObject({ input: shown });
    expect(jsonLines(files.get(join(work, "rejects.jsonl")) ?? "").map((r) => r.source)).toContain(shown);
    const shownPage = shown.replace("sample.warc.gz", "page.html");
    expect(jsonLines(files.get(join(work, "one.jsonl")) ?? "").filter((d) => d.source === shownPage)).toEqual([
      expect.objectContaining({ url: shownPage, warc_record_id: `<file:${shownPage}>` }),
    ]);
    expect(files.get(join(work, "one.jsonl.manifest"))).toContain(shown);
    // The logs still say which input failed, without its secrets.
    expect(stderrMessages(runs[0].stderr, 50).join("\n")).toContain(`http://REDACTED@${origin}/private/cut-then-down.warc.gz`);
    expect(stderrMessages(runs[2].stderr, 50).join("\n")).toMatch(/cannot read input: HTTP 404.*\(http:\/\/REDACTED@/);
  });
});

describe("a remote input cut short after its retries", () => {
  it("fails a plain run with exit 3 naming it; what came before the cut is written", async () => {
    const work = mkdtempSync(join(dir, "cut-plain-"));
    const url = `http://${origin}/cut-then-down.warc.gz`;
    const ok = `http://${origin}/sample.warc.gz`;
    const result = await runWinnow(["clean", ok, url, "-o", "out.jsonl", ...FAST_RETRIES, ...QUICK], work);
    expect(result.code).toBe(3);
    const failure = stderrMessages(result.stderr, 50);
    expect(failure).toEqual([
      expect.stringMatching(
        new RegExp(
          `^winnow: 1 of 2 inputs were cut short, so the output lacks their end; run again to read them whole \\(${url.replaceAll(".", "\\.")}: connection dropped at byte 60000|reading stopped at byte 60000`,
        ),
      ),
    ]);
    const docs = jsonLines(readFileSync(join(work, "out.jsonl"), "utf8"));
    const sources = docs.map((d) => d.source);
    // The whole of the good input, and the documents from the cut one's first 60000 bytes.
    expect(sources.filter((s) => s === ok).length).toBeGreaterThan(10);
    const fromCut = sources.filter((s) => s === url).length;
    expect(fromCut).toBeGreaterThan(0);
    expect(fromCut).toBeLessThan(sources.filter((s) => s === ok).length);
  });

  it("a remote input that cannot be opened at all fails a plain run too (exit 3), the others written", async () => {
    const work = mkdtempSync(join(dir, "missing-plain-"));
    const ok = `http://${origin}/sample.warc.gz`;
    const missing = `http://${origin}/missing.warc.gz`;
    const result = await runWinnow(["clean", ok, missing, "-o", "out.jsonl", ...FAST_RETRIES, ...QUICK], work);
    expect(result.code).toBe(3);
    expect(stderrMessages(result.stderr, 50)).toEqual([
      `winnow: 1 of 2 inputs could not be read, so the output lacks them; run again to read them (${missing}: HTTP 404 Not Found)`,
    ]);
    expect(jsonLines(readFileSync(join(work, "out.jsonl"), "utf8")).length).toBeGreaterThan(10);
  });

  it("leaves a per-input task's output undone (no output, no done marker), exit 3, so a resubmission redoes it", async () => {
    const work = mkdtempSync(join(dir, "cut-per-input-"));
    const url = `http://${origin}/cut-then-down.warc.gz`;
    const result = await runWinnow(["clean", "--per-input", url, "-o", "out", ...FAST_RETRIES, ...QUICK], work);
    expect(result.code).toBe(3);
    expect(existsSync(join(work, "out", "cut-then-down.jsonl.gz"))).toBe(false);
    expect(existsSync(join(work, "out", "cut-then-down.jsonl.gz.done"))).toBe(false);
    expect(stderrMessages(result.stderr, 50).join("\n")).toMatch(/1 of 1 inputs could not be read; run the task again to retry them/);
  });
});

describe("--read-timeout", () => {
  it("a body that stalls is given up after the timeout and resumed: the output is whole", async () => {
    const work = mkdtempSync(join(dir, "stall-"));
    const url = `http://${origin}/stall.warc.gz`;
    const started = Date.now();
    const remote = await runWinnow(["clean", url, "-o", "remote.jsonl", "--read-timeout", "0.5", ...QUICK], work);
    const local = await runWinnow(["clean", SAMPLE, "-o", "local.jsonl", ...QUICK], work);
    expect([remote.code, local.code]).toEqual([0, 0]);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(stderrMessages(remote.stderr)).toContainEqual(
      expect.stringMatching(/^winnow: warning: connection dropped at byte 40000 \(no bytes came for 0.5 s \(--read-timeout\)\)/),
    );
    const texts = (file: string) => jsonLines(readFileSync(join(work, file), "utf8")).map((d) => d.text);
    expect(texts("remote.jsonl")).toEqual(texts("local.jsonl"));
  });

  it("refuses a timeout that is not a positive number of seconds", async () => {
    for (const value of ["0", "-1", "soon"]) {
      const result = await runWinnow(["clean", SAMPLE, "-o", "x.jsonl", "--read-timeout", value], dir);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/--read-timeout.*expected a number of seconds above 0/);
    }
  });
});

describe("s3:// inputs", () => {
  let s3rver: S3rver;
  let s3dir: string;
  let endpoint: string;
  /** The environment of a run that finds the s3rver key pair, and nothing else of the machine's AWS settings. */
  let withKeys: NodeJS.ProcessEnv;
  let noCredentials: NodeJS.ProcessEnv;

  beforeAll(async () => {
    s3dir = mkdtempSync(join(tmpdir(), "winnow-remote-cli-s3-"));
    s3rver = new S3rver({
      port: 0,
      address: "127.0.0.1",
      silent: true,
      directory: s3dir,
      configureBuckets: [{ name: "crawl", configs: [] }],
    });
    const { port } = await s3rver.run();
    endpoint = `http://127.0.0.1:${port}`;
    // s3rver takes anonymous writes.
    const put = await fetch(`${endpoint}/crawl/seg/sample.warc.gz`, { method: "PUT", body: DATA });
    expect(put.status).toBe(200);
    const clean: NodeJS.ProcessEnv = { ...process.env };
    for (const name of Object.keys(clean)) if (name.startsWith("AWS_")) delete clean[name];
    noCredentials = {
      ...clean,
      HOME: s3dir,
      AWS_SHARED_CREDENTIALS_FILE: join(s3dir, "no-credentials"),
      AWS_CONFIG_FILE: join(s3dir, "no-config"),
      AWS_EC2_METADATA_DISABLED: "true",
      AWS_REGION: "us-east-1",
    };
    withKeys = { ...noCredentials, AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" };
  });
  afterAll(async () => {
    await s3rver.close();
    rmSync(s3dir, { recursive: true, force: true });
  });

  it("stderr of a run stays JSON lines, whatever the AWS SDK says", async () => {
    const work = mkdtempSync(join(dir, "s3-"));
    const result = await runWinnow(
      ["clean", "s3://crawl/seg/sample.warc.gz", "-o", "out.jsonl", "--s3-endpoint", endpoint, ...QUICK],
      work,
      undefined,
      withKeys,
    );
    expect(result.code).toBe(0);
    const lines = result.stderr.split("\n").filter((line) => line !== "");
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(jsonLines(readFileSync(join(work, "out.jsonl"), "utf8")).length).toBeGreaterThan(10);
  });

  it("with no credentials: fails at once, exit 3, saying so, without a retry", async () => {
    const work = mkdtempSync(join(dir, "s3-no-credentials-"));
    const result = await runWinnow(
      ["clean", "s3://crawl/seg/sample.warc.gz", "-o", "out.jsonl", "--s3-endpoint", endpoint, "--retry-delay", "5000", ...QUICK],
      work,
      undefined,
      noCredentials,
    );
    expect(result.code).toBe(3);
    const messages = stderrMessages(result.stderr);
    expect(messages.filter((m) => /: try \d+ in/.test(m))).toEqual([]);
    expect(stderrMessages(result.stderr, 50)).toEqual([
      expect.stringMatching(/^winnow: cannot read input: no AWS credentials found \(.*\): .* \(s3:\/\/crawl\/seg\/sample\.warc\.gz\)$/),
    ]);
    // The output was opened before the input: it holds no document.
    expect(readFileSync(join(work, "out.jsonl"), "utf8")).toBe("");
  });
});
