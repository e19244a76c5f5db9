import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { blockFingerprint, labelFileName, makeLabelFile, readLabelDir } from "@winnow/labels";
import { heuristicClassifier } from "@winnow/models";
import { hostileSite, SCRIPT_TEXT } from "../test/fixtures.js";
import { loadLabelPages, type LabelPage } from "./label-data.js";
import { LABEL_HOST, LabelServerError, startLabelServer, type PageDetail, type RunningLabelServer } from "./label-server.js";
import { LabelStore } from "./label-store.js";

const site = hostileSite();
let pages: LabelPage[];
let labelsDir: string;
let server: RunningLabelServer;

async function start(): Promise<RunningLabelServer> {
  return startLabelServer({ pages, store: await LabelStore.open(labelsDir), classifier: heuristicClassifier(), port: 0 });
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request, so that tests can send any Host, Origin or body. */
function send(
  method: string,
  path: string,
  options: { body?: string; headers?: Record<string, string>; port?: number } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    // No keep-alive agent: a socket handed back to a pool while a large body was still being
    // written when the server answered early (413) would report the reset to nobody.
    const req = request(
      { host: LABEL_HOST, port: options.port ?? server.port, method, path, headers: options.headers, agent: false },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    // The server may answer and close before the whole body is written; that reset is expected.
    req.on("socket", (socket) => socket.on("error", () => {}));
    req.end(options.body);
  });
}

// biome-ignore lint/suspicious/noExplicitAny: replies are read as loose JSON, field by field
const json = (reply: Reply): any => JSON.parse(reply.body);
const pageUrl = (page: LabelPage): string => `/api/page?id=${encodeURIComponent(page.id)}`;
const saveUrl = (page: LabelPage): string => `/api/labels?id=${encodeURIComponent(page.id)}`;
const JSON_TYPE = { "Content-Type": "application/json" };

function save(page: LabelPage, labels: unknown, fingerprint: unknown = blockFingerprint(page.blockTexts)): Promise<Reply> {
  return send("POST", saveUrl(page), { body: JSON.stringify({ fingerprint, labels }), headers: JSON_TYPE });
}

beforeAll(async () => {
  pages = await loadLabelPages([site]);
});
beforeEach(async () => {
  labelsDir = mkdtempSync(join(tmpdir(), "winnow-labels-"));
  server = await start();
  return async () => {
    await server.close();
    rmSync(labelsDir, { recursive: true, force: true });
  };
});
afterAll(() => rmSync(join(site, ".."), { recursive: true, force: true }));

describe("label-ui server", () => {
  it("listens on 127.0.0.1 only, on the port it was given or a free one", async () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
    expect(server.port).toBeGreaterThan(0);
    // The same port on another local address of this machine is not served.
    await expect(
      new Promise((resolve, reject) => request({ host: "::1", port: server.port, path: "/api/pages" }, resolve).on("error", reject).end()),
    ).rejects.toMatchObject({ code: expect.stringMatching(/ECONNREFUSED|EADDRNOTAVAIL|ENETUNREACH/) });
  });

  it("serves the labelling page with a policy that runs only its own script, and no page text in it", async () => {
    const reply = await send("GET", "/", { headers: { Host: `127.0.0.1:${server.port}` } });
    expect(reply.status).toBe(200);
    expect(reply.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(reply.headers["content-security-policy"]).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'; connect-src 'self'/);
    expect(reply.body).not.toContain("window.__pwned");
  });

  it("lists the pages and shows one with the model's pre-labels", async () => {
    const list = json(await send("GET", "/api/pages"));
    expect(list.model).toBe("heuristic");
    expect(list.pages).toEqual([
      {
        id: "markup.html",
        url: expect.stringMatching(/^file:/),
        title: "Markup <b>as</b> text",
        blocks: pages[0].blockTexts.length,
        saved: null,
      },
      { id: join("sub", "plain.html"), url: expect.any(String), title: "Plain", blocks: pages[1].blockTexts.length, saved: null },
    ]);
    const reply = await send("GET", pageUrl(pages[0]));
    expect(reply.headers["content-type"]).toBe("application/json; charset=utf-8");
    const detail = json(reply) as PageDetail;
    expect(detail.from).toBe("model");
    expect(detail.fingerprint).toBe(blockFingerprint(pages[0].blockTexts));
    expect(detail.labels).toEqual(detail.blocks.map((b) => b.kept));
    expect(detail.labels).toContain(0);
    expect(detail.labels).toContain(1);
    // Text is data in JSON, not markup: exactly as on the page.
    expect(detail.blocks.some((b) => b.text.includes(SCRIPT_TEXT))).toBe(true);
  });

  it("saves labels by hand, atomically, in winnow's label format, and shows them after a restart", async () => {
    const page = pages[0];
    const labels = page.blockTexts.map((_, i) => (i === 1 ? "comment" : i % 2 === 0 ? 1 : 0));
    const reply = await save(page, labels);
    expect(reply.status).toBe(200);
    expect(json(reply)).toMatchObject({ id: "markup.html", labels: labels.length });
    // One file, no temporary left behind.
    expect(readdirSync(labelsDir)).toEqual([labelFileName("markup.html")]);
    const stored = (await readLabelDir(labelsDir)).get("markup.html")!;
    expect(stored).toEqual(makeLabelFile(page, labels, "hand"));
    expect(stored).toMatchObject({ version: 2, labels });
    expect(json(await send("GET", pageUrl(page))) as PageDetail).toMatchObject({ from: "hand", labels });
    expect(json(await send("GET", "/api/pages")).pages[0].saved).toBe("hand");

    await server.close();
    server = await start();
    expect(json(await send("GET", pageUrl(page))) as PageDetail).toMatchObject({ from: "hand", labels });
  });

  it("keeps the last of quick successive saves of a page", async () => {
    const page = pages[0];
    const n = page.blockTexts.length;
    const versions = [0, 1, 0, 1, 1].map((v) => new Array(n).fill(v));
    versions[4][0] = 0;
    const replies = await Promise.all(versions.map((labels) => save(page, labels)));
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(readdirSync(labelsDir)).toEqual([labelFileName("markup.html")]);
    const stored = JSON.parse(readFileSync(join(labelsDir, labelFileName("markup.html")), "utf8"));
    expect(stored.labels).toEqual(versions[4]);
    // Saved from label-ui, a page without comment blocks is still a page looked at for comments.
    expect(stored.version).toBe(2);
  });

  it("shows the model's labels, and says why, when saved labels no longer fit the blocks", async () => {
    const page = pages[0];
    const stale = makeLabelFile(
      { ...page, blockTexts: page.blockTexts.map((t) => `${t}!`) },
      page.blockTexts.map(() => 1),
      "hand",
    );
    writeFileSync(join(labelsDir, labelFileName(page.id)), JSON.stringify(stale));
    await server.close();
    server = await start();
    const detail = json(await send("GET", pageUrl(page))) as PageDetail;
    expect(detail.from).toBe("model");
    expect(detail.note).toMatch(/different block texts .*showing the model's labels/);
  });

  it("fills blocks a saved file leaves unlabelled with the model's labels", async () => {
    const page = pages[0];
    const partial = makeLabelFile(
      page,
      page.blockTexts.map((_, i) => (i === 0 ? 1 : null)),
      "propagated",
    );
    writeFileSync(join(labelsDir, labelFileName(page.id)), JSON.stringify(partial));
    await server.close();
    server = await start();
    const detail = json(await send("GET", pageUrl(page))) as PageDetail;
    expect(detail.from).toBe("propagated");
    expect(detail.labels).toEqual(detail.blocks.map((b, i) => (i === 0 ? 1 : b.kept)));
  });

  it("answers bad requests with a 4xx and a message saying what is wrong", async () => {
    const page = pages[0];
    const n = page.blockTexts.length;
    const cases: Array<[Promise<Reply>, number, RegExp]> = [
      [send("GET", "/api/page"), 400, /missing \?id=PAGE_ID/],
      [send("GET", "/api/page?id=nope"), 404, /no page with id "nope"/],
      [send("POST", saveUrl(page), { body: "{", headers: JSON_TYPE }), 400, /not valid JSON/],
      [send("POST", saveUrl(page), { body: "[1]", headers: JSON_TYPE }), 400, /expected a JSON object/],
      [save(page, new Array(n - 1).fill(1)), 400, new RegExp(`has ${n - 1} entries but page markup.html has ${n} blocks`)],
      [save(page, [2, ...new Array(n - 1).fill(1)]), 400, /labels\[0\] is 2; expected 0 \(boilerplate\), 1 \(content\) or "comment"/],
      [save(page, ["Comment", ...new Array(n - 1).fill(1)]), 400, /labels\[0\] is "Comment"/],
      [save(page, [null, ...new Array(n - 1).fill(1)]), 400, /labels\[0\] is null/],
      [save(page, "all"), 400, /"labels" must be an array/],
      [save(page, new Array(n).fill(1), "0000000000000000"), 409, /"fingerprint" does not match/],
      [send("POST", saveUrl(page), { body: "{}", headers: { "Content-Type": "text/plain" } }), 415, /application\/json/],
      [
        send("POST", saveUrl(page), { body: "{}", headers: { ...JSON_TYPE, Origin: "https://evil.example" } }),
        403,
        /only allowed from the labelling page/,
      ],
      [send("GET", "/api/pages", { headers: { Host: `evil.example:${server.port}` } }), 403, /must be addressed to 127\.0\.0\.1/],
      [send("GET", saveUrl(page)), 405, /use POST/],
      [send("POST", "/api/pages", { headers: JSON_TYPE }), 405, /use GET/],
      [send("GET", "/favicon.ico"), 404, /nothing at \/favicon\.ico/],
      [send("POST", saveUrl(page), { body: "x".repeat(5 << 20), headers: JSON_TYPE }), 413, /larger than 4 MiB/],
    ];
    for (const [reply, status, message] of cases) {
      const r = await reply;
      expect({ status: r.status, error: json(r).error }).toEqual({ status, error: expect.stringMatching(message) });
    }
    // Nothing was saved by any of them.
    expect(existsSync(join(labelsDir, labelFileName(page.id)))).toBe(false);
  });

  it("refuses a port that is taken, saying so", async () => {
    await expect(
      startLabelServer({ pages, store: await LabelStore.open(labelsDir), classifier: heuristicClassifier(), port: server.port }),
    ).rejects.toThrow(new LabelServerError(`port ${server.port} on 127.0.0.1 is in use`));
  });
});
