// The corpus steps end to end on real pages: language identification, the rule sets, rejects,
// --keep-filtered, --stats, Parquet against JSONL, and outputs per language.
//
// The compiled module is imported (run `npx tsc -b` first), as in run.test.ts.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { INTEGER_STATS, readCorpus } from "@winnow/writers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "@winnow/errors";
import { runClean, type CleanRunOptions } from "../dist/run.js";
import type { CorpusOptions } from "../dist/steps.js";

const FIXTURES = new URL("../../../fixtures/", import.meta.url).pathname;
const MAGIC = join(FIXTURES, "magic-html-sample/html");
const WCXB = join(FIXTURES, "wcxb-sample/html");

/** The language each page is in, from its set: magic-html's guess ("zh-cn" → "zh"), WCXB's are English. */
function expectedLanguages(): Map<string, string> {
  const expected = new Map<string, string>();
  for (const [set, html] of [
    ["magic-html-sample", MAGIC],
    ["wcxb-sample", WCXB],
  ]) {
    for (const name of readdirSync(join(FIXTURES, set, "ground-truth"))) {
      const page = JSON.parse(readFileSync(join(FIXTURES, set, "ground-truth", name), "utf8"));
      const lang = (page._internal?.language_guess ?? "en").split("-")[0];
      expected.set(join(html, name.replace(".json", ".html.gz")), lang);
    }
  }
  return expected;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-corpus-"));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const ALL_ON: CorpusOptions = { langId: true, filters: [], stats: false, keepFiltered: false };

const clean = (options: Partial<CleanRunOptions> & { output: string }) =>
  runClean({ inputs: [MAGIC, WCXB], workers: 0, ...options, corpus: { ...ALL_ON, ...options.corpus } });

async function rows(path: string): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for await (const row of readCorpus(path)) out.push(row);
  return out;
}

const lines = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("language identification on cleaned pages", () => {
  it("names the language of at least 95% of 30 real pages in five languages (all of them here)", async () => {
    const out = join(dir, "lang.jsonl");
    const summary = await clean({ output: out, workers: 1 });
    const docs = await rows(out);
    const expected = expectedLanguages();
    expect(summary.documentsWritten).toBe(30);
    const right = docs.filter((d) => expected.get(String(d.source)) === d.lang).length;
    expect(new Set(expected.values())).toEqual(new Set(["en", "zh", "ja", "tr", "ar"]));
    expect(right / docs.length).toBeGreaterThanOrEqual(0.95);
    expect(right).toBe(30);
    for (const d of docs) expect(d.lang_score).toBeGreaterThan(0.5);
  });

  it("drops other languages as 'language' skips with the rule and value, or keeps them annotated", async () => {
    const out = join(dir, "en.jsonl");
    const rejects = join(dir, "en-rejects.jsonl");
    const summary = await clean({ output: out, rejectsPath: rejects, corpus: { ...ALL_ON, langs: ["en"] } });
    expect(summary.documentsWritten).toBe(22);
    expect(summary.skipped.language).toBe(8);
    const rejected = lines(rejects);
    expect(new Set(rejected.map((r) => r.value))).toEqual(new Set(["zh", "ja", "tr", "ar"]));
    for (const r of rejected) expect(r).toMatchObject({ reason: "language", rule: "language.langs" });

    const kept = join(dir, "en-kept.jsonl");
    const all = await clean({ output: kept, corpus: { ...ALL_ON, langs: ["en"], keepFiltered: true } });
    expect(all.documentsWritten).toBe(30);
    const failed = lines(kept).filter((d) => (d.filter_failed as unknown[]).length > 0);
    expect(failed.length).toBe(8);
    expect(failed[0].filter_failed).toEqual([{ rule: "language.langs", value: failed[0].lang }]);
  });

  it("turns off with langId false: no lang fields", async () => {
    const out = join(dir, "nolang.jsonl");
    await clean({ output: out, corpus: { ...ALL_ON, langId: false } });
    expect(Object.keys(lines(out)[0])).not.toContain("lang");
  });
});

/** A table row (tab-separated cells) or code (a line break inside a paragraph). */
const LAID_OUT = /\t|[^\n]\n[^\n]/;

describe("quality filters on real pages", () => {
  it("drops failing pages to the rejects with the first rule failed and its value; --keep-filtered writes them annotated", async () => {
    const out = join(dir, "filtered.jsonl");
    const rejects = join(dir, "filtered-rejects.jsonl");
    const corpus = { ...ALL_ON, filters: ["gopher_quality", "gopher_repetition", "c4", "fineweb"] as CorpusOptions["filters"] };
    const summary = await clean({ output: out, rejectsPath: rejects, corpus });
    const rejected = lines(rejects).filter((r) => r.reason === "filter");
    expect(rejected.length).toBe(summary.skipped.filter);
    expect(summary.skipped.filter).toBeGreaterThan(0);
    expect(summary.documentsWritten + summary.skipped.filter).toBe(30);
    for (const r of rejected) {
      expect(String(r.rule)).toMatch(/^(gopher_quality|gopher_repetition|c4|fineweb)\./);
      expect(typeof r.value).toBe("number");
    }

    const kept = join(dir, "kept.jsonl");
    await clean({ output: kept, corpus: { ...corpus, keepFiltered: true, stats: true } });
    const docs = lines(kept);
    expect(docs.length).toBe(30);
    const annotated = docs.filter((d) => (d.filter_failed as unknown[]).length > 0);
    expect(annotated.length).toBe(summary.skipped.filter);
    // The first rule each rejected page failed is the first of its annotation, with the same value.
    const byUrl = new Map(annotated.map((d) => [d.url, (d.filter_failed as Array<{ rule: string; value: number }>)[0]]));
    for (const r of rejected) expect(byUrl.get(r.url)).toEqual({ rule: r.rule, value: r.value });
  });

  it("writes statistics that reproduce every verdict", async () => {
    const out = join(dir, "stats.jsonl");
    let plainDocs = 0;
    await clean({ output: out, corpus: { ...ALL_ON, filters: ["gopher_quality", "fineweb"], stats: true, keepFiltered: true } });
    for (const d of lines(out)) {
      const stats = d.stats as Record<string, Record<string, number> | number>;
      expect(Object.keys(stats)).toEqual(["words", "cjk_words", "lines", "chars", "gopher_quality", "gopher_repetition", "c4", "fineweb"]);
      // Statistics measure the kept blocks, one line each; the text lays tables and code out.
      if (!LAID_OUT.test(d.text as string)) {
        expect(stats.chars).toBe((d.text as string).length);
        plainDocs++;
      }
      for (const f of d.filter_failed as Array<{ rule: string; value: number }>) {
        const [set, key] = f.rule.split(".");
        expect((stats[set] as Record<string, number>)[key]).toBe(f.value);
      }
    }
    expect(plainDocs).toBeGreaterThan(20);
  });

  it("C4's line rules edit the written text", async () => {
    const out = join(dir, "c4.jsonl");
    const plain = join(dir, "c4-plain.jsonl");
    await clean({ output: plain, corpus: { ...ALL_ON, keepFiltered: true } });
    await clean({ output: out, corpus: { ...ALL_ON, filters: ["c4"], keepFiltered: true } });
    const before = lines(plain);
    const after = lines(out);
    expect(after.map((d) => d.url)).toEqual(before.map((d) => d.url));
    const shorter = after.filter((d, i) => (d.text as string).length < (before[i].text as string).length);
    expect(shorter.length).toBeGreaterThan(10);
    for (const d of after) for (const line of (d.text as string).split("\n")) if (line !== "") expect(line).toMatch(/[.!?"。！？”»」』؟]$/);
  });
});

describe("outputs for corpus tooling", () => {
  it("writes Parquet with the same rows as JSONL (read back by hyparquet and by DuckDB, typed)", async () => {
    const corpus = {
      ...ALL_ON,
      filters: ["gopher_quality", "gopher_repetition", "c4", "fineweb"] as CorpusOptions["filters"],
      stats: true,
      keepFiltered: true,
    };
    await clean({ output: join(dir, "same.jsonl"), corpus });
    await clean({ output: join(dir, "same.parquet"), corpus });
    const fromJsonl = await rows(join(dir, "same.jsonl"));
    // readCorpus gives a Parquet row back in the JSONL object's shape.
    const fromParquet = await rows(join(dir, "same.parquet"));
    expect(fromParquet.length).toBe(30);
    expect(fromParquet).toEqual(fromJsonl);

    const db = await DuckDBInstance.create(":memory:");
    const connection = await db.connect();
    const query = async (sql: string) => (await connection.runAndReadAll(sql)).getRowObjectsJson();
    const file = join(dir, "same.parquet");
    const types = Object.fromEntries(
      (await query(`DESCRIBE SELECT * FROM read_parquet('${file}')`)).map((r) => [r.column_name, r.column_type]),
    );
    expect(types).toMatchObject({ warc_date: "TIMESTAMP WITH TIME ZONE", date: "DATE", tags: "VARCHAR[]", blocks_kept: "INTEGER" });
    // Every stat a real run gives (38 with the four sets): the listed counts are integers in JSONL
    // and INTEGER in Parquet, every other one DOUBLE.
    const statTypes = new Map<string, string>();
    const walk = (type: string, prefix: string) => {
      const inner = /^STRUCT\((.*)\)$/.exec(type)?.[1];
      if (inner === undefined) return void statTypes.set(prefix, type);
      let depth = 0;
      let start = 0;
      for (let i = 0; i <= inner.length; i++) {
        const c = inner[i];
        if (c === "(") depth++;
        else if (c === ")") depth--;
        else if ((c === "," && depth === 0) || i === inner.length) {
          const part = inner.slice(start, i).trim();
          const space = part.indexOf(" ");
          walk(part.slice(space + 1), prefix === "" ? part.slice(0, space) : `${prefix}.${part.slice(0, space)}`);
          start = i + 1;
        }
      }
    };
    walk(types.stats as string, "");
    expect(statTypes.size).toBeGreaterThanOrEqual(38);
    const valuesOf = (path: string) =>
      fromJsonl.map((d) => path.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], d.stats));
    for (const [path, type] of statTypes) {
      if (INTEGER_STATS.has(path)) {
        expect(type, path).toBe("INTEGER");
        expect(valuesOf(path).every(Number.isInteger), path).toBe(true);
      } else {
        expect(type, path).toBe("DOUBLE");
      }
    }
    const [sums] = await query(
      `SELECT sum(stats.words) AS words, sum(stats.chars) AS chars, sum(blocks_kept) AS kept FROM read_parquet('${file}')`,
    );
    const total = (key: string) => fromJsonl.reduce((n, d) => n + ((d.stats as Record<string, number>)[key] ?? 0), 0);
    expect([Number(sums.words), Number(sums.chars)]).toEqual([total("words"), total("chars")]);
    expect(Number(sums.kept)).toBe(fromJsonl.reduce((n, d) => n + (d.blocks_kept as number), 0));
    connection.closeSync();
  });

  it("on the bundled sample archive, DuckDB reads each capture date as the JSONL's instant", async () => {
    const sample = join(FIXTURES, "sample.warc.gz");
    await runClean({ inputs: [sample], workers: 0, output: join(dir, "sample.jsonl") });
    await runClean({ inputs: [sample], workers: 0, output: join(dir, "sample.parquet") });
    const fromJsonl = await rows(join(dir, "sample.jsonl"));
    expect(fromJsonl.length).toBeGreaterThan(5);
    expect(await rows(join(dir, "sample.parquet"))).toEqual(fromJsonl);
    const connection = await (await DuckDBInstance.create(":memory:")).connect();
    const fromDuck = (
      await connection.runAndReadAll(
        `SELECT url, epoch_ms(warc_date) AS ms, typeof(warc_date) AS type, blocks_kept, typeof(blocks_kept) AS kept_type
         FROM read_parquet('${join(dir, "sample.parquet")}')`,
      )
    ).getRowObjectsJson();
    connection.closeSync();
    expect(fromDuck.map((d) => [d.url, Number(d.ms), d.type, d.blocks_kept, d.kept_type])).toEqual(
      fromJsonl.map((j) => [j.url, Date.parse(j.warc_date as string), "TIMESTAMP WITH TIME ZONE", j.blocks_kept, "INTEGER"]),
    );
  });

  it("writes one zstd file per language with -o 'DIR/{lang}/part.jsonl.zst'", async () => {
    const summary = await clean({ output: join(dir, "bylang/{lang}/part.jsonl.zst") });
    expect(summary.documentsWritten).toBe(30);
    expect(readdirSync(join(dir, "bylang")).sort()).toEqual(["ar", "en", "ja", "tr", "zh"]);
    const zh = await rows(join(dir, "bylang/zh/part.jsonl.zst"));
    expect(zh.length).toBe(5);
    expect(zh.every((d) => d.lang === "zh")).toBe(true);
    expect(basename(String(zh[0].source))).toMatch(/\.html\.gz$/);
  });

  it("refuses {lang} without language identification, and --langs with it off", async () => {
    await expect(clean({ output: join(dir, "x/{lang}.jsonl"), corpus: { ...ALL_ON, langId: false } })).rejects.toThrow(UsageError);
    await expect(clean({ output: join(dir, "x.jsonl"), corpus: { ...ALL_ON, langId: false, langs: ["en"] } })).rejects.toThrow(/--langs/);
    await expect(clean({ output: join(dir, "x/{host}.jsonl") })).rejects.toThrow(/unknown field \{host\}/);
  });
});
