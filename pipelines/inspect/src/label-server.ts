/**
 * The local server of `winnow label-ui`, on Node's own http module and bound to 127.0.0.1 only.
 *
 *   GET  /                   the labelling page (self-contained; it talks to the API below)
 *   GET  /api/pages          every page: id, url, title, block count, source of saved labels
 *   GET  /api/page?id=ID     one page: its blocks with the model's scores, and the labels to show
 *                            (the saved ones if they still fit the blocks, else the model's)
 *   POST /api/labels?id=ID   {"fingerprint": "...", "labels": [0|1|"comment", ...]}: save them, by hand
 *
 * Errors are JSON {"error": "..."} with a 4xx status saying what was wrong with the request.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { blockFingerprint, COMMENT_LABEL, labelMismatch } from "@winnow/labels";
import type { BlockClassifier } from "@winnow/models";
import { scorePages } from "@winnow/models";
import { blockViews, type BlockView } from "./block-view.js";
import type { LabelPage } from "./label-data.js";
import { renderLabelPage } from "./label-html.js";
import type { LabelStore } from "./label-store.js";
import { UsageError } from "@winnow/errors";

export const DEFAULT_LABEL_PORT = 7341;
/** Only this interface: the labelling server is for the person at this machine. */
export const LABEL_HOST = "127.0.0.1";
/** A page's labels are a few kilobytes; anything far larger is not a labelling request. */
const MAX_BODY_BYTES = 4 << 20;

export interface LabelServerOptions {
  pages: readonly LabelPage[];
  store: LabelStore;
  classifier: BlockClassifier;
  /** 0 picks a free port. Default 7341. */
  port?: number;
}

export interface RunningLabelServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The port cannot be listened on; the message says why in words (exit 2: --port names it). */
export class LabelServerError extends UsageError {
  override readonly name: string = "LabelServerError";
}

/** A block's label as the page shows and saves it: content, boilerplate or a user comment. */
export type ShownLabel = 0 | 1 | typeof COMMENT_LABEL;

/** One page as GET /api/page returns it. */
export interface PageDetail {
  id: string;
  url: string;
  title: string;
  fingerprint: string;
  blocks: BlockView[];
  /**
   * The labels to show: the saved ones where they fit the blocks, else the model's pre-labels
   * (content or boilerplate; the model does not pre-label comments).
   */
  labels: ShownLabel[];
  /** Where `labels` came from: a saved file's source ("hand", "propagated", ...) or "model". */
  from: string;
  /** Why saved labels were not used, when there were some. */
  note?: string;
}

class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export async function startLabelServer(options: LabelServerOptions): Promise<RunningLabelServer> {
  const byId = new Map(options.pages.map((p) => [p.id, p]));
  const scores = new Map<string, BlockView[]>();
  let port = 0;

  const viewsOf = async (page: LabelPage): Promise<BlockView[]> => {
    let views = scores.get(page.id);
    if (views === undefined) {
      const [scored] = await scorePages([page.doc], options.classifier);
      views = blockViews(page.doc, scored.scores, scored.kept);
      scores.set(page.id, views);
    }
    return views;
  };

  const pageDetail = async (page: LabelPage): Promise<PageDetail> => {
    const blocks = await viewsOf(page);
    const detail: PageDetail = {
      id: page.id,
      url: page.url,
      title: page.title,
      fingerprint: blockFingerprint(page.blockTexts),
      blocks,
      labels: blocks.map((b) => b.kept),
      from: "model",
    };
    const saved = options.store.get(page.id);
    if (saved !== undefined) {
      const mismatch = labelMismatch(saved, page.blockTexts);
      if (mismatch !== undefined) {
        detail.note = `${mismatch}; showing the model's labels`;
      } else {
        // Blocks a saved file leaves unlabelled (propagation may) show the model's label.
        detail.labels = saved.labels.map((l, i) => (l === null ? blocks[i].kept : l));
        detail.from = saved.source;
      }
    }
    return detail;
  };

  const pageFor = (url: URL): LabelPage => {
    const id = url.searchParams.get("id");
    if (id === null) throw new HttpProblem(400, "missing ?id=PAGE_ID");
    const page = byId.get(id);
    if (page === undefined) throw new HttpProblem(404, `no page with id ${JSON.stringify(id)}`);
    return page;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    checkHost(request, port);
    const url = new URL(request.url ?? "/", `http://${LABEL_HOST}:${port}`);
    const route = `${request.method} ${url.pathname}`;
    switch (route) {
      case "GET /": {
        const page = renderLabelPage();
        send(response, 200, page.html, "text/html; charset=utf-8", { "Content-Security-Policy": page.csp });
        return;
      }
      case "GET /api/pages":
        sendJson(response, 200, {
          model: options.classifier.name,
          threshold: options.classifier.threshold,
          labelsDir: options.store.dir,
          pages: options.pages.map((p) => ({
            id: p.id,
            url: p.url,
            title: p.title,
            blocks: p.blockTexts.length,
            saved: options.store.get(p.id)?.source ?? null,
          })),
        });
        return;
      case "GET /api/page":
        sendJson(response, 200, await pageDetail(pageFor(url)));
        return;
      case "POST /api/labels": {
        const page = pageFor(url);
        checkSameOrigin(request, port);
        const labels = parseSaveRequest(await readJsonBody(request), page);
        const path = await options.store.save(page, labels);
        sendJson(response, 200, { saved: path, id: page.id, labels: labels.length });
        return;
      }
    }
    if (["/", "/api/pages", "/api/page"].includes(url.pathname))
      throw new HttpProblem(405, `${request.method} is not allowed on ${url.pathname}; use GET`, { Allow: "GET" });
    if (url.pathname === "/api/labels")
      throw new HttpProblem(405, `${request.method} is not allowed on /api/labels; use POST`, { Allow: "POST" });
    throw new HttpProblem(404, `nothing at ${url.pathname}`);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (error instanceof HttpProblem) sendJson(response, error.status, { error: error.message }, error.headers);
      else sendJson(response, 500, { error: `internal error: ${(error as Error)?.message ?? String(error)}` });
    });
  });
  port = await listen(server, options.port ?? DEFAULT_LABEL_PORT);
  return {
    url: `http://${LABEL_HOST}:${port}/`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      const why =
        error.code === "EADDRINUSE" ? "is in use" : error.code === "EACCES" ? "needs privileges" : `cannot be used: ${error.message}`;
      reject(new LabelServerError(`port ${port} on ${LABEL_HOST} ${why}`));
    });
    server.listen(port, LABEL_HOST, () => resolve((server.address() as AddressInfo).port));
  });
}

/**
 * Another site's page could reach this server through a DNS name pointed at 127.0.0.1 (DNS
 * rebinding); its requests carry that name in Host, so only our own names are served.
 */
function checkHost(request: IncomingMessage, port: number): void {
  const host = request.headers.host ?? "";
  if (host !== `${LABEL_HOST}:${port}` && host !== `localhost:${port}`) {
    throw new HttpProblem(403, `requests must be addressed to ${LABEL_HOST}:${port} (Host was ${JSON.stringify(host)})`);
  }
}

/** A save must come from the labelling page itself, not from a form on another site. */
function checkSameOrigin(request: IncomingMessage, port: number): void {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${LABEL_HOST}:${port}` && origin !== `http://localhost:${port}`) {
    throw new HttpProblem(403, `saving is only allowed from the labelling page (Origin was ${JSON.stringify(origin)})`);
  }
  const type = (request.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json")
    throw new HttpProblem(415, `send the labels as application/json (Content-Type was ${JSON.stringify(type)})`);
}

async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpProblem(413, `request body larger than ${MAX_BODY_BYTES >> 20} MiB`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new HttpProblem(400, "the request body is not valid JSON");
  }
}

/** Checks {fingerprint, labels} against the page; every block needs a 0, a 1 or "comment". */
function parseSaveRequest(body: unknown, page: LabelPage): ShownLabel[] {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new HttpProblem(400, 'expected a JSON object {"fingerprint": ..., "labels": [...]}');
  const { fingerprint, labels } = body as { fingerprint?: unknown; labels?: unknown };
  if (fingerprint !== blockFingerprint(page.blockTexts)) {
    throw new HttpProblem(409, `"fingerprint" does not match the blocks of page ${page.id}; reload the page`);
  }
  if (!Array.isArray(labels)) throw new HttpProblem(400, '"labels" must be an array of 0, 1 and "comment"');
  if (labels.length !== page.blockTexts.length) {
    throw new HttpProblem(400, `"labels" has ${labels.length} entries but page ${page.id} has ${page.blockTexts.length} blocks`);
  }
  labels.forEach((l, i) => {
    if (l !== 0 && l !== 1 && l !== COMMENT_LABEL)
      throw new HttpProblem(
        400,
        `labels[${i}] is ${JSON.stringify(l)}; expected 0 (boilerplate), 1 (content) or "comment" (a user comment)`,
      );
  });
  return labels as ShownLabel[];
}

function sendJson(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  send(response, status, JSON.stringify(value), "application/json; charset=utf-8", headers);
}

function send(response: ServerResponse, status: number, body: string, type: string, headers: Record<string, string>): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(status, {
    "Content-Type": type,
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    ...headers,
  });
  response.end(body);
}
