import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { InputError } from "@winnow/errors";
import { LabelledDataError } from "./errors.js";
import { listWcxb, loadWcxb, loadWcxbSync, type WcxbPage } from "./wcxb.js";

/** `text` as a regular expression matching itself. */
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const FIXTURE = fileURLToPath(new URL("../../../fixtures/wcxb-sample", import.meta.url));
const TYPES = ["article", "collection", "documentation", "forum", "listing", "product", "service"];

async function collect(gen: AsyncGenerator<WcxbPage>): Promise<WcxbPage[]> {
  const out: WcxbPage[] = [];
  for await (const p of gen) out.push(p);
  return out;
}

describe("listWcxb", () => {
  it("lists the fixture's 14 pages from metadata alone", () => {
    const entries = listWcxb(FIXTURE);
    expect(entries).toHaveLength(14);
    expect(entries.map((e) => e.id)).toEqual([...entries.map((e) => e.id)].sort());
    expect(new Set(entries.map((e) => e.domain)).size).toBe(14);
    for (const t of TYPES)
      expect(
        entries.filter((e) => e.pageType === t),
        t,
      ).toHaveLength(2);
    expect(entries.find((e) => e.id === "2864")).toEqual({
      id: "2864",
      domain: "postgresql.org",
      pageType: "documentation",
      spa: false,
      split: "dev",
    });
  });
});

describe("loadWcxb", () => {
  it("reads HTML, gold text, snippets and title", async () => {
    const pages = await collect(loadWcxb(FIXTURE));
    expect(pages).toHaveLength(14);
    const pg = pages.find((p) => p.id === "2864")!;
    expect(pg.url).toBe("https://www.postgresql.org/docs/current/indexes.html");
    expect(pg.title).toBe("Chapter 11. Indexes");
    expect(pg.html).toContain("<title>PostgreSQL: Documentation: 18: Chapter\u00a011.\u00a0Indexes</title>");
    expect(pg.gold.startsWith("Table of Contents\n\n11.1. Introduction")).toBe(true);
    expect(pg.withSnippets[0]).toBe("Indexes are a common way to enhance database performance.");
    expect(pg.withoutSnippets).toContain("Submit correction");
    for (const p of pages) {
      expect(p.html.length, p.id).toBeGreaterThan(1000);
      expect(p.gold.length, p.id).toBeGreaterThan(100);
      expect(p.html.includes("\uFFFD"), `${p.id} decodes as UTF-8`).toBe(false);
    }
  });

  it("decodes non-ASCII text", () => {
    const [steam] = loadWcxbSync(FIXTURE, { ids: ["3052"] });
    expect(steam.gold).toContain("Arthur Morgan");
    expect(steam.html).toMatch(/[^\x00-\x7f]/);
  });

  it("keeps the requested id order and matches the sync loader", async () => {
    const ids = ["4855", "0437", "2911"];
    const async = await collect(loadWcxb(FIXTURE, { ids }));
    expect(async.map((p) => p.id)).toEqual(ids);
    expect(loadWcxbSync(FIXTURE, { ids })).toEqual(async);
  });

  it("rejects ids that are not in the metadata", () => {
    expect(() => listWcxb(FIXTURE, { ids: ["9999"] })).toThrow(/"9999" is not in metadata.json/);
  });
});

describe("WCXB layout errors and gaps", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  /** A one-page WCXB layout in a temp dir; `omit` leaves a file out, `replace` gives files other contents. */
  function makeLayout(omit?: string, domain = "", groundTruth: object = {}, replace: Record<string, string | Buffer> = {}): string {
    const dir = mkdtempSync(join(tmpdir(), "wcxb-"));
    dirs.push(dir);
    mkdirSync(join(dir, "html"));
    mkdirSync(join(dir, "ground-truth"));
    const files = { "0001": { split: "dev", page_type: "forum", domain, spa: false } };
    const write = (rel: string, data: string | Buffer): void => {
      if (rel !== omit) writeFileSync(join(dir, rel), replace[rel] ?? data);
    };
    write("metadata.json", JSON.stringify({ split: "dev", files }));
    write("html/0001.html.gz", gzipSync("<p>héllo</p>"));
    write("ground-truth/0001.json", JSON.stringify(groundTruth));
    return dir;
  }

  it("names the missing metadata.json", () => {
    expect(() => listWcxb(makeLayout("metadata.json"))).toThrow(/metadata\.json is missing/);
  });

  it("names a missing page file", async () => {
    const dir = makeLayout("html/0001.html.gz");
    expect(() => loadWcxbSync(dir)).toThrow(/html[/\\]0001\.html\.gz is missing/);
    await expect(collect(loadWcxb(dir))).rejects.toThrow(/0001\.html\.gz is missing/);
    expect(() => loadWcxbSync(makeLayout("ground-truth/0001.json"))).toThrow(/0001\.json is missing/);
  });

  /** The error a loader throws: an input error (exit 3) whose message names `path`. */
  async function inputErrorOf(load: () => unknown): Promise<LabelledDataError> {
    let error: unknown;
    try {
      const result = load();
      if (result !== null && typeof result === "object" && Symbol.asyncIterator in result)
        await collect(result as AsyncGenerator<WcxbPage>);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LabelledDataError);
    expect(error).toBeInstanceOf(InputError);
    expect((error as LabelledDataError).exitCode).toBe(3);
    return error as LabelledDataError;
  }

  it("a page file metadata.json lists but the folder lacks: an input error naming it (exit 3)", async () => {
    const dir = makeLayout("html/0001.html.gz");
    for (const load of [() => loadWcxbSync(dir), () => loadWcxb(dir)]) {
      expect((await inputErrorOf(load)).message).toContain(join(dir, "html", "0001.html.gz"));
    }
  });

  it("malformed JSON in metadata.json or a ground-truth file: an input error naming the file", async () => {
    const badGold = makeLayout(undefined, "", {}, { "ground-truth/0001.json": '{"url": "https://example.org/", ' });
    for (const load of [() => loadWcxbSync(badGold), () => loadWcxb(badGold)]) {
      expect((await inputErrorOf(load)).message).toMatch(
        new RegExp(`^invalid JSON: .* \\(${escapeRegExp(join(badGold, "ground-truth", "0001.json"))}\\)$`),
      );
    }
    const badMeta = makeLayout(undefined, "", {}, { "metadata.json": "{ not json" });
    expect((await inputErrorOf(() => listWcxb(badMeta))).message).toMatch(
      new RegExp(`^invalid JSON: .* \\(${escapeRegExp(join(badMeta, "metadata.json"))}\\)$`),
    );
    const noFiles = makeLayout(undefined, "", {}, { "metadata.json": JSON.stringify({ files: [] }) });
    expect((await inputErrorOf(() => listWcxb(noFiles))).message).toContain(join(noFiles, "metadata.json"));
  });

  it("a .html.gz that is not gzip, or is cut short: an input error naming the file", async () => {
    const whole = gzipSync("<p>héllo</p>".repeat(200));
    for (const bytes of [Buffer.from("<p>plain html, not gzip</p>"), whole.subarray(0, whole.length - 10)]) {
      const dir = makeLayout(undefined, "", {}, { "html/0001.html.gz": bytes });
      for (const load of [() => loadWcxbSync(dir), () => loadWcxb(dir)]) {
        expect((await inputErrorOf(load)).message).toMatch(
          new RegExp(`^not a whole gzip file: .* \\(${escapeRegExp(join(dir, "html", "0001.html.gz"))}\\)$`),
        );
      }
    }
  });

  it("a page id that would reach outside the folder (../): refused, never followed, naming metadata.json", async () => {
    for (const id of ["../outside", "..", "a/../../b", "/etc/passwd"]) {
      const meta = JSON.stringify({ files: { [id]: { split: "dev", page_type: "forum", domain: "", spa: false } } });
      const dir = makeLayout(undefined, "", {}, { "metadata.json": meta });
      const error = await inputErrorOf(() => listWcxb(dir));
      expect(error.message).toBe(`WCXB page id "${id}" is not a plain file name (${join(dir, "metadata.json")})`);
    }
  });

  it("names a missing folder", () => {
    const dir = makeLayout();
    rmSync(join(dir, "ground-truth"), { recursive: true });
    expect(() => listWcxb(dir)).toThrow(/ground-truth is missing/);
  });

  it("falls back to the URL host and tolerates absent fields", () => {
    const gt = { url: "https://www.example.org/t/1", ground_truth: { title: "T", with: ["a"] } };
    const [p] = loadWcxbSync(makeLayout(undefined, "", gt));
    expect(p).toMatchObject({ domain: "example.org", gold: "", withSnippets: ["a"], withoutSnippets: [] });
    expect(p.html).toBe("<p>héllo</p>");
  });
});
