import { mkdtempSync, openSync, closeSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  candidateProbability,
  dedupInMemory,
  DedupKeyMaker,
  editWords,
  estimateJaccard,
  exactHash,
  hashOf,
  lineHashes,
  mergeRuns,
  MinHasher,
  normalizeText,
  removeLines,
  RunWriter,
  runsOf,
  seededRandom,
  shingleJaccard,
  StreamingDeduper,
  UnionFind,
} from "./index.js";

/** The main text of every fixture page with a ground truth, at least 150 words long. */
function fixturePages(): string[] {
  const root = join(import.meta.dirname, "../../../fixtures");
  const pages: string[] = [];
  for (const set of ["wcxb-sample", "magic-html-sample"]) {
    const dir = join(root, set, "ground-truth");
    for (const name of readdirSync(dir).sort()) {
      const text = JSON.parse(readFileSync(join(dir, name), "utf8")).ground_truth.main_content as string;
      if (text.split(/\s+/).length >= 150) pages.push(text);
    }
  }
  return pages;
}

const pages = fixturePages();

describe("normalisation and exact hashes", () => {
  it("folds case, accents, punctuation, digits and spacing as FineWeb does", () => {
    expect(normalizeText("  The 3 Cafés — open 24/7!\n\tNow ")).toBe("the 0 cafes open 000 now");
    expect(exactHash("Hello, World! 2024")).toBe(exactHash("hello world 1999"));
    expect(exactHash("Hello, World!")).not.toBe(exactHash("Hello, Word!"));
  });

  it("hashes a string or its UTF-8 bytes alike, and does not normalise them", () => {
    expect(hashOf("Café\u0000<urn:uuid:1>")).toBe(hashOf(Buffer.from("Café\u0000<urn:uuid:1>")));
    expect(hashOf("Hello, World!")).not.toBe(hashOf("hello world"));
    // XXH3-64 with seed 0 of the empty input, as the reference implementation gives it.
    expect(hashOf("").toString(16)).toBe("2d06800538d394c2");
  });

  it("gives ASCII text (its fast path) what the Unicode path gives", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary-ascii", maxLength: 60 }), (s) => {
        // "é" sends the text down the Unicode path, where it becomes "e".
        expect(normalizeText(`${s}\u00e9`)).toBe(normalizeText(`${s}e`));
      }),
      { numRuns: 2000 },
    );
  });
});

describe("MinHash", () => {
  it("estimates Jaccard within a few points of the truth on real pages", () => {
    const hasher = new MinHasher();
    const random = seededRandom(7);
    for (const page of pages.slice(0, 10)) {
      const copy = editWords(page, 0.05, random);
      const truth = shingleJaccard(page, copy);
      const est = estimateJaccard(hasher.signatureOf(page) as Uint32Array, hasher.signatureOf(copy) as Uint32Array);
      // 112 hashes: standard error at most 0.047.
      expect(Math.abs(est - truth)).toBeLessThan(0.16);
    }
  });

  it("gives 14 band keys by default, equal for equal texts, and none for an empty text", () => {
    const hasher = new MinHasher();
    const a = hasher.bandKeys(hasher.signatureOf(pages[0]) as Uint32Array);
    const b = hasher.bandKeys(hasher.signatureOf(pages[0].toUpperCase()) as Uint32Array);
    expect(a.length).toBe(14);
    expect([...a]).toEqual([...b]);
    expect(hasher.signatureOf(" ,. ")).toBeNull();
    expect(candidateProbability(0.8, { bands: 14, rows: 8 })).toBeGreaterThan(0.92);
  });
});

describe("planted duplicates", () => {
  // Every page, then for each page copies edited at rates from 0 to 40% of words.
  const rates = [0, 0.01, 0.02, 0.03, 0.05, 0.08, 0.12, 0.2, 0.3, 0.4];
  const random = seededRandom(42);
  const texts = [...pages];
  const origin: number[] = pages.map((_, i) => i);
  for (let p = 0; p < pages.length; p++) {
    for (const rate of rates) {
      texts.push(rate === 0 ? `${pages[p].replace(/\s+/g, "  ").toLowerCase()} !!` : editWords(pages[p], rate, random));
      origin.push(p);
    }
  }
  const verdicts = dedupInMemory(texts);
  const jaccard = texts.map((t, i) => (i < pages.length ? 1 : shingleJaccard(pages[origin[i]], t)));

  it("drops at least 95% of the copies at Jaccard >= 0.8 with their page kept", () => {
    let high = 0;
    let found = 0;
    for (let i = pages.length; i < texts.length; i++) {
      if (jaccard[i] < 0.8) continue;
      high++;
      if (verdicts[i].of !== null && origin[verdicts[i].of as number] === origin[i]) found++;
    }
    expect(high).toBeGreaterThan(40);
    expect(found / high).toBeGreaterThanOrEqual(0.95);
  });

  it("never drops a copy below Jaccard 0.5, nor a page for another page", () => {
    for (let i = 0; i < texts.length; i++) {
      const v = verdicts[i];
      if (i < pages.length) expect(v.of).toBeNull();
      if (v.of !== null) {
        expect(origin[v.of]).toBe(origin[i]);
        expect(jaccard[i]).toBeGreaterThanOrEqual(0.5);
      }
    }
    expect(jaccard.filter((j) => j < 0.5).length).toBeGreaterThan(10);
  });

  it("keeps the first of each cluster and names exact copies as exact", () => {
    for (let i = pages.length; i < texts.length; i++) {
      const v = verdicts[i];
      if (v.of !== null) expect(v.of).toBe(origin[i]);
    }
    const exactCopies = texts.map((_, i) => i).filter((i) => i >= pages.length && (i - pages.length) % rates.length === 0);
    for (const i of exactCopies) expect(verdicts[i]).toEqual({ of: origin[i], kind: "exact" });
  });

  it("one pass (clean --dedup) finds the same copies on this corpus", () => {
    const maker = new DedupKeyMaker({ mode: "minhash" });
    const deduper = new StreamingDeduper({ mode: "minhash" });
    const stream = texts.map((t) => deduper.check(maker.keys(t)));
    // Nearly the same documents dropped (the one-byte signature estimate can fall on the other side
    // of min-similarity near it), and every copy at Jaccard >= 0.8 that the reference drops.
    const differ = stream.filter((m, i) => (m !== null) !== (verdicts[i].of !== null)).length;
    expect(differ / texts.length).toBeLessThan(0.03);
    for (let i = 0; i < texts.length; i++) if (jaccard[i] >= 0.8 && verdicts[i].of !== null) expect(stream[i]).not.toBeNull();
    const sameKeeper = stream.filter((m, i) => m !== null && m.of === verdicts[i].of).length;
    expect(sameKeeper / stream.filter((m) => m !== null).length).toBeGreaterThan(0.95);
    const exactOnly = new StreamingDeduper({ mode: "exact" });
    const exactMaker = new DedupKeyMaker({ mode: "exact" });
    const dropped = texts.map((t) => exactOnly.check(exactMaker.keys(t))).filter((m) => m !== null);
    expect(dropped.length).toBeGreaterThanOrEqual(pages.length);
    expect(dropped.length).toBe(verdicts.filter((v) => v.kind === "exact").length);
  });
});

describe("union-find", () => {
  it("roots every set at its smallest member", () => {
    const uf = new UnionFind(10);
    uf.union(7, 3);
    uf.union(9, 7);
    uf.union(5, 9);
    expect([3, 5, 7, 9].map((i) => uf.find(i))).toEqual([3, 3, 3, 3]);
    expect(uf.find(4)).toBe(4);
  });
});

describe("lines", () => {
  it("removes frequent lines and keeps blocks apart by one blank line", () => {
    const text = "Intro para.\n\nAccept all cookies!\n\nBody text here.\n\nFooter (c) 2024";
    const frequent = new Set([...lineHashes("accept all COOKIES\nfooter c 1999")]);
    const out = removeLines(text, (h) => frequent.has(h));
    expect(out).toEqual({ text: "Intro para.\n\nBody text here.", removed: 2, lines: 4 });
    expect(lineHashes("a\nA!\nb").length).toBe(2);
  });
});

describe("bucket files", () => {
  const dir = mkdtempSync(join(tmpdir(), "winnow-runs-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("merges sorted runs of several files in key order with every entry", () => {
    const random = seededRandom(3);
    const written: Array<[bigint, number, number]> = [];
    const refs = [];
    for (let f = 0; f < 3; f++) {
      const path = join(dir, `f${f}.bin`);
      const fd = openSync(path, "w");
      const w = new RunWriter(fd, 1000);
      for (let i = 0; i < 2500; i++) {
        const key = (BigInt(Math.floor(random() * 2 ** 32)) << 32n) | BigInt(Math.floor(random() * 50));
        w.add(key, f, i);
        written.push([key, f, i]);
      }
      w.finish();
      closeSync(fd);
      expect(w.runs).toEqual([1000, 1000, 500]);
      refs.push(...runsOf(path, w.runs));
    }
    const merged: Array<[bigint, number, number]> = [];
    mergeRuns(refs, (hi, lo, a, b) => merged.push([(BigInt(hi) << 32n) | BigInt(lo), a, b]));
    written.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] - y[1] || x[2] - y[2]));
    expect(merged).toEqual(written);
  });
});
