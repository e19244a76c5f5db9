import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { UsageError } from "@winnow/errors";
import { DuckDBInstance } from "@duckdb/node-api";
import { asyncBufferFromFile, parquetMetadataAsync } from "hyparquet";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type CleanDocument, type CorpusRow, openWriter, readCorpus } from "./index.js";

/** Documents with every optional field a corpus run gives them. */
function corpusDocs(n: number): CleanDocument[] {
  const langs = ["en", "de", "zh"];
  return Array.from({ length: n }, (_, i) => ({
    url: `https://example.com/${i}?q="x"&y=<z>`,
    recordId: `<urn:uuid:${i}>`,
    // Every fifth a plain file: no capture date, no media type.
    date: i % 5 === 1 ? "" : "2024-05-01T12:00:00Z",
    contentType: i % 5 === 1 ? "" : "text/html",
    charset: "utf-8",
    title: `Title ${i} — Größe 東京 😀`,
    blocks: [
      { text: `Heading ${i}`, heading: 2 },
      { text: `Paragraph ${i} with "quotes", tabs\tand line\nbreaks.`, heading: 0 },
    ],
    blocksTotal: 7,
    source: "/data/crawl.warc.gz",
    lang: langs[i % 3],
    langScore: 0.5 + (i % 50) / 100,
    filterFailed:
      i % 4 === 0
        ? [
            { rule: "gopher_quality.word_count", value: 12 },
            { rule: "language.langs", value: "zh" },
          ]
        : [],
    // Pages say more or less about themselves.
    metadata:
      i % 3 === 0
        ? { declaredLang: "de-DE", author: "Ann Lee; Bo Chen", date: "2021-03-04", tags: ["a", "b, c"], categories: ["News"] }
        : i % 3 === 1
          ? {
              sitename: "Example",
              description: "About <this>",
              canonicalUrl: "https://example.com/c",
              dateModified: "2022-01-01T10:00:00Z",
              date: "2023-12-31T23:30:00-02:00",
            }
          : { date: "2020-06-07T08:09:10" },
    stats: {
      words: 10 + i,
      cjk_words: 0,
      lines: 3,
      chars: 80 + i,
      gopher_quality: { word_count: 10 + i, mean_word_length: 4.25 },
      fineweb: { line_punct_ratio: 0.5, short_line_ratio: 0.3333 },
    },
  }));
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-corpus-formats-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function write(path: string, docs: CleanDocument[], format: "jsonl" | "parquet", rowGroupChars?: number): Promise<void> {
  const w = await openWriter({ format, path, rowGroupChars });
  for (const d of docs) await w.write(d);
  await w.close();
}

async function rows(path: string): Promise<CorpusRow[]> {
  const out: CorpusRow[] = [];
  for await (const row of readCorpus(path)) out.push(row);
  return out;
}

describe("Parquet", () => {
  it("holds the same rows as the JSONL output, read back by a second reader (hyparquet)", async () => {
    const docs = corpusDocs(30);
    await write(join(dir, "c.jsonl"), docs, "jsonl");
    // Small row groups: several of them, each read back on its own.
    await write(join(dir, "c.parquet"), docs, "parquet", 200);
    const fromJsonl = await rows(join(dir, "c.jsonl"));
    // Parquet has every column in every row: a field JSONL leaves out is null there.
    const fromParquet = (await rows(join(dir, "c.parquet"))).map((row) =>
      Object.fromEntries(Object.entries(row).filter(([, v]) => v !== null)),
    );
    expect(fromParquet).toEqual(fromJsonl);
    for (let i = 0; i < 3; i++) expect(Object.keys(fromParquet[i])).toEqual(Object.keys(fromJsonl[i]));
    expect(fromJsonl[0]).toMatchObject({ declared_lang: "de-DE", author: "Ann Lee; Bo Chen", date: "2021-03-04", tags: ["a", "b, c"] });
    expect(fromJsonl[1]).not.toHaveProperty("warc_date");
    expect(fromJsonl[1]).not.toHaveProperty("content_type");
    expect(fromJsonl[1]).toMatchObject({
      sitename: "Example",
      canonical_url: "https://example.com/c",
      date_modified: "2022-01-01T10:00:00Z",
    });
    const meta = await parquetMetadataAsync(await asyncBufferFromFile(join(dir, "c.parquet")));
    expect(meta.row_groups.length).toBeGreaterThan(3);
    expect(Number(meta.num_rows)).toBe(30);
  });

  it("bounds a row group at 10,000 documents", async () => {
    const docs = corpusDocs(3);
    const many = Array.from({ length: 25_000 }, (_, i) => ({ ...docs[i % 3], url: `u${i}`, stats: undefined, filterFailed: undefined }));
    await write(join(dir, "big.parquet"), many, "parquet");
    const meta = await parquetMetadataAsync(await asyncBufferFromFile(join(dir, "big.parquet")));
    expect(meta.row_groups.map((g) => Number(g.num_rows))).toEqual([10_000, 10_000, 5_000]);
    const back = await rows(join(dir, "big.parquet"));
    expect(back.length).toBe(25_000);
    expect(back[24_999].url).toBe("u24999");
  });

  it("refuses a compression suffix: Parquet compresses its own pages", async () => {
    await expect(openWriter({ format: "parquet", path: join(dir, "c.parquet.gz") })).rejects.toThrow(UsageError);
  });

  it("writes a valid file with no document", async () => {
    await write(join(dir, "empty.parquet"), [], "parquet");
    expect(await rows(join(dir, "empty.parquet"))).toEqual([]);
    expect(readFileSync(join(dir, "empty.parquet")).subarray(0, 4).toString()).toBe("PAR1");
  });
});

/** The rows of a query DuckDB runs (an independent reader: its own C++ Parquet code), as JSON values. */
async function duckdb(sql: string): Promise<Array<Record<string, unknown>>> {
  const db = await DuckDBInstance.create(":memory:");
  const connection = await db.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson() as Array<Record<string, unknown>>;
  } finally {
    connection.closeSync();
  }
}

describe("Parquet read by DuckDB", () => {
  it("has typed columns: timestamps, dates, lists of strings, integer counts, a struct of stats", async () => {
    const docs = corpusDocs(12);
    await write(join(dir, "c.parquet"), docs, "parquet", 200);
    const described = await duckdb(`DESCRIBE SELECT * FROM read_parquet('${join(dir, "c.parquet")}')`);
    const types = Object.fromEntries(described.map((r) => [r.column_name, r.column_type]));
    expect(types).toMatchObject({
      url: "VARCHAR",
      warc_date: "TIMESTAMP WITH TIME ZONE",
      date: "DATE",
      date_time: "TIMESTAMP WITH TIME ZONE",
      date_iso: "VARCHAR",
      date_modified: "DATE",
      date_modified_time: "TIMESTAMP WITH TIME ZONE",
      categories: "VARCHAR[]",
      tags: "VARCHAR[]",
      lang_score: "DOUBLE",
      blocks_kept: "INTEGER",
      blocks_total: "INTEGER",
      stats:
        "STRUCT(words INTEGER, cjk_words INTEGER, lines INTEGER, chars INTEGER, " +
        "gopher_quality STRUCT(word_count INTEGER, mean_word_length DOUBLE), " +
        "fineweb STRUCT(line_punct_ratio DOUBLE, short_line_ratio DOUBLE))",
    });
  });

  it("holds the values of the JSONL output of the same documents", async () => {
    const docs = corpusDocs(12);
    await write(join(dir, "c.jsonl"), docs, "jsonl");
    await write(join(dir, "c.parquet"), docs, "parquet", 200);
    const fromJsonl = await rows(join(dir, "c.jsonl"));
    const fromDuck = await duckdb(
      `SELECT url, epoch_ms(warc_date) AS warc_ms, CAST(date AS VARCHAR) AS day, epoch_ms(date_time) AS date_ms, date_iso,
        CAST(date_modified AS VARCHAR) AS modified_day, epoch_ms(date_modified_time) AS modified_ms, date_modified_iso,
        categories, tags, blocks_kept, blocks_total, stats.words AS words, stats.gopher_quality.mean_word_length AS mwl
       FROM read_parquet('${join(dir, "c.parquet")}')`,
    );
    expect(fromDuck.length).toBe(12);
    fromJsonl.forEach((j, i) => {
      const d = fromDuck[i];
      expect(d.url).toBe(j.url);
      expect(d.warc_ms === null ? null : Number(d.warc_ms)).toBe(j.warc_date === undefined ? null : Date.parse(j.warc_date as string));
      // The DATE is the day as the page wrote it, in its own offset (2023-12-31 at 23:30 -02:00 is 01:30 UTC on Jan 1).
      expect(d.day).toBe(j.date === undefined ? null : (j.date as string).slice(0, 10));
      expect(d.date_iso).toBe(j.date ?? null);
      expect(d.modified_day).toBe(j.date_modified === undefined ? null : (j.date_modified as string).slice(0, 10));
      expect(d.date_modified_iso).toBe(j.date_modified ?? null);
      expect(d.modified_ms === null ? null : Number(d.modified_ms)).toBe(
        j.date_modified === undefined ? null : Date.parse(j.date_modified as string),
      );
      expect(d.categories).toEqual(j.categories ?? null);
      expect(d.tags).toEqual(j.tags ?? null);
      expect(d.blocks_kept).toBe(j.blocks_kept);
      expect(d.blocks_total).toBe(j.blocks_total);
      expect(d.words).toBe((j.stats as { words: number }).words);
      expect(d.mwl).toBe(4.25);
    });
    // A time with an offset is an instant; a day alone, or a time with no offset, is none.
    expect(fromDuck.map((d) => [d.day, d.date_ms === null ? null : Number(d.date_ms)]).slice(0, 3)).toEqual([
      ["2021-03-04", null],
      ["2023-12-31", Date.parse("2024-01-01T01:30:00Z")],
      ["2020-06-07", null],
    ]);
  });
});

describe("zstd", () => {
  it("compresses .zst by name, and reads back the same rows", async () => {
    const docs = corpusDocs(20);
    await write(join(dir, "c.jsonl"), docs, "jsonl");
    await write(join(dir, "c.jsonl.zst"), docs, "jsonl");
    expect([...readFileSync(join(dir, "c.jsonl.zst")).subarray(0, 4)]).toEqual([0x28, 0xb5, 0x2f, 0xfd]);
    expect(await rows(join(dir, "c.jsonl.zst"))).toEqual(await rows(join(dir, "c.jsonl")));
  });
});

describe("templated outputs", () => {
  it("writes one file per language, each whole", async () => {
    const docs = corpusDocs(9);
    await write(join(dir, "out/{lang}/part.jsonl.gz"), docs, "jsonl");
    expect(readdirSync(join(dir, "out")).sort()).toEqual(["de", "en", "zh"]);
    const en = await rows(join(dir, "out/en/part.jsonl.gz"));
    expect(en.map((r) => r.url)).toEqual([docs[0].url, docs[3].url, docs[6].url]);
    await write(join(dir, "pq/{lang}.parquet"), docs, "parquet");
    expect((await rows(join(dir, "pq/zh.parquet"))).length).toBe(3);
  });

  it("puts every file in place together once all are complete, and none when the run drops them", async () => {
    const docs = corpusDocs(6);
    mkdirSync(join(dir, "all"), { recursive: true });
    writeFileSync(join(dir, "all", "en.jsonl"), "the earlier run's file\n");
    // A link is followed: its target gets the file, and the link stays.
    writeFileSync(join(dir, "de-target.jsonl"), "");
    symlinkSync(join("..", "de-target.jsonl"), join(dir, "all", "de.jsonl"));
    const dropped = await openWriter({ format: "jsonl", path: join(dir, "all", "{lang}.jsonl") });
    for (const d of docs) await dropped.write(d);
    await dropped.discard();
    expect(readFileSync(join(dir, "all", "en.jsonl"), "utf8")).toBe("the earlier run's file\n");
    expect(readdirSync(join(dir, "all")).sort()).toEqual(["de.jsonl", "en.jsonl"]);
    const kept = await openWriter({ format: "jsonl", path: join(dir, "all", "{lang}.jsonl") });
    for (const d of docs) await kept.write(d);
    // Until close, nothing is in place.
    expect(readFileSync(join(dir, "all", "en.jsonl"), "utf8")).toBe("the earlier run's file\n");
    expect(existsSync(join(dir, "all", "zh.jsonl"))).toBe(false);
    await kept.close();
    expect(readdirSync(join(dir, "all")).sort()).toEqual(["de.jsonl", "en.jsonl", "zh.jsonl"]);
    expect((await rows(join(dir, "all", "en.jsonl"))).map((r) => r.url)).toEqual([docs[0].url, docs[3].url]);
    expect(lstatSync(join(dir, "all", "de.jsonl")).isSymbolicLink()).toBe(true);
    expect((await rows(join(dir, "de-target.jsonl"))).map((r) => r.url)).toEqual([docs[1].url, docs[4].url]);
  });

  it('files documents without a language under "und", and refuses unknown fields', async () => {
    const [doc] = corpusDocs(1);
    await write(join(dir, "{lang}.jsonl"), [{ ...doc, lang: undefined }], "jsonl");
    expect(readdirSync(dir)).toEqual(["und.jsonl"]);
    await expect(openWriter({ format: "jsonl", path: join(dir, "{host}.jsonl") })).rejects.toThrow(UsageError);
  });
});
