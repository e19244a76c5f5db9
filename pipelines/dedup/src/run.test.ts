import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { dedupInMemory, editWords, seededRandom, normalizeText, shingleJaccard, wordCount } from "@winnow/dedup";
import { InputError, UsageError } from "@winnow/errors";
import { type CleanDocument, commitOutput, openWriter, readCorpus, stagingPathFor } from "@winnow/writers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkedInputs, type DedupPass, type DedupSummary, runDedup, type TaskEvent } from "./index.js";
import { identityOf } from "./identity.js";
import { listInputs } from "./inputs.js";

const fixtures = join(import.meta.dirname, "../../../fixtures");

/** The main text of every fixture page with a ground truth, at least 100 words long. */
function fixturePages(): string[] {
  const pages: string[] = [];
  for (const set of ["wcxb-sample", "magic-html-sample"]) {
    const dir = join(fixtures, set, "ground-truth");
    for (const name of readdirSync(dir).sort()) {
      const text = JSON.parse(readFileSync(join(dir, name), "utf8")).ground_truth.main_content as string;
      if (text.split(/\s+/).length >= 100) pages.push(text);
    }
  }
  return pages;
}

const BOILERPLATE = "We use cookies to improve your experience. By continuing you accept our cookie policy.";

/** Pages, planted copies (exact, near, far) and a boilerplate line in every other page. */
function corpus(): string[] {
  const pages = fixturePages();
  const random = seededRandom(5);
  // Every other page, and each of its copies, ends with the boilerplate line.
  const page = (p: number) => (p % 2 === 1 ? `${pages[p]}\n\n${BOILERPLATE}` : pages[p]);
  const texts = pages.map((_, p) => page(p));
  for (let p = 0; p < pages.length; p++) {
    texts.push(page(p).toLowerCase().replace(/ +/g, "  "));
    texts.push(editWords(page(p), 0.03, random));
    texts.push(editWords(page(p), 0.4, random));
  }
  return texts;
}

function doc(text: string, i: number): CleanDocument {
  return {
    url: `https://example.org/page/${i}`,
    recordId: `<urn:uuid:doc-${i}>`,
    date: "2026-01-01T00:00:00Z",
    contentType: "text/html",
    charset: "utf-8",
    title: `page ${i}`,
    blocks: text.split("\n\n").map((b) => ({ text: b, heading: 0 })),
    blocksTotal: 3,
    source: "fixture.warc.gz",
  };
}

const NAMES = ["a.jsonl", "b.jsonl.gz", "c.parquet"];
let dir: string;
let inputs: string[];
const texts = corpus();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "winnow-dedup-"));
  // Documents dealt round-robin over three inputs written as winnow clean writes them.
  inputs = NAMES.map((n) => join(dir, "in", n));
  for (let f = 0; f < NAMES.length; f++) {
    const writer = await openWriter({ format: NAMES[f].endsWith(".parquet") ? "parquet" : "jsonl", path: inputs[f] });
    for (let i = f; i < texts.length; i += NAMES.length) await writer.write(doc(texts[i], i));
    await writer.close();
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every output file below `out` (not the state folder), by its path relative to `out`. */
function outputFiles(out: string): string[] {
  return (readdirSync(out, { recursive: true }) as string[])
    .filter((p) => !p.split(/[/\\]/).some((part) => part.startsWith(".")) && statSync(join(out, p)).isFile())
    .sort();
}

/** Every output file's rows, by its path relative to `out`. */
async function outputs(out: string): Promise<Record<string, unknown[]>> {
  const all: Record<string, unknown[]> = {};
  for (const name of outputFiles(out)) {
    all[name] = [];
    for await (const row of readCorpus(join(out, name))) all[name].push(row);
  }
  return all;
}

/** Every output file's bytes, by its path relative to `out`. */
function outputBytes(out: string): Record<string, string> {
  return Object.fromEntries(outputFiles(out).map((name) => [name, readFileSync(join(out, name)).toString("base64")]));
}

function docNumber(id: string): number {
  return Number(/doc-(\d+)/.exec(id)?.[1]);
}

/** The stable order: input by input, row by row. */
function stableOrder(): number[] {
  const order: number[] = [];
  for (let f = 0; f < NAMES.length; f++) for (let i = f; i < texts.length; i += NAMES.length) order.push(i);
  return order;
}

describe("winnow dedup stage", () => {
  let oneGo: DedupSummary;
  let oneGoOut: Record<string, unknown[]>;

  beforeAll(async () => {
    oneGo = await runDedup({ inputs, output: join(dir, "one-go"), rejectsPath: join(dir, "one-go.rejects.jsonl"), runEntries: 16 });
    oneGoOut = await outputs(join(dir, "one-go"));
  });

  it("keeps what the in-memory reference keeps, in the same stable order", () => {
    const order = stableOrder();
    const verdicts = dedupInMemory(order.map((i) => texts[i]));
    const expected = order.filter((_, k) => verdicts[k].of === null);
    const kept = Object.values(oneGoOut)
      .flat()
      .map((r) => docNumber((r as { warc_record_id: string }).warc_record_id));
    expect(kept.sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
    expect(Object.keys(oneGoOut)).toEqual(["a.jsonl", "b.jsonl.gz", "c.jsonl"]);
    expect(oneGo.documents).toBe(texts.length);
    expect(oneGo.kept + oneGo.dropped.exact + oneGo.dropped.near).toBe(texts.length);
    const pages = fixturePages().length;
    // Each page's exact copy, and most 3% copies (some short pages fall below Jaccard 0.7 with 3% edited).
    expect(oneGo.dropped.exact + oneGo.dropped.near).toBeGreaterThanOrEqual(1.5 * pages);
    expect(oneGo.dropped.exact).toBeGreaterThan(0);
    expect(oneGo.jaccard?.min).toBeGreaterThanOrEqual(0.7);
  });

  it("writes a rejects line per dropped document naming the document kept, which is similar", () => {
    const lines = readFileSync(join(dir, "one-go.rejects.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.length).toBe(oneGo.dropped.exact + oneGo.dropped.near);
    for (const line of lines) {
      expect(line.reason).toBe("duplicate");
      expect(["exact", "near"]).toContain(line.kind);
      const kept = docNumber(line.duplicate_of);
      const dropped = docNumber(line.id);
      expect(shingleJaccard(texts[kept], texts[dropped])).toBeGreaterThanOrEqual(line.kind === "exact" ? 0.99 : 0.5);
    }
  });

  it("gives the same outputs when each task runs on its own, pass by pass", async () => {
    const out = join(dir, "tasks");
    const state = join(dir, "tasks-state");
    for (let s = 0; s < 3; s++) await runDedup({ inputs, output: out, state, pass: "signatures", shards: [s], runEntries: 16 });
    // Later tasks find the inputs in the plan.
    for (const band of ["exact", ...Array.from({ length: 14 }, (_, b) => String(b))].reverse()) {
      await runDedup({ inputs: [], output: out, state, pass: "buckets", bands: [band] });
    }
    await runDedup({ inputs: [], output: out, state, pass: "clusters" });
    const last = await runDedup({ inputs: [], output: out, state, pass: "filter", shards: [2] });
    expect(last.passesDone).not.toContain("filter");
    await runDedup({ inputs: [], output: out, state, pass: "filter", shards: [1, 0] });
    expect(await outputs(out)).toEqual(oneGoOut);
  });

  it("resumes a run interrupted between passes, redoing nothing done", async () => {
    const out = join(dir, "resumed");
    const controller = new AbortController();
    const first = await runDedup({
      inputs,
      output: out,
      runEntries: 16,
      signal: controller.signal,
      onTask: (t: TaskEvent) => {
        if (t.pass === "buckets" && t.task === "5") controller.abort();
      },
    });
    expect(first.interrupted).toBe(true);
    expect(first.passesDone).toEqual(["signatures"]);
    const events: TaskEvent[] = [];
    const second = await runDedup({ inputs, output: out, runEntries: 16, onTask: (t) => events.push(t) });
    expect(second.interrupted).toBe(false);
    expect(events.filter((e) => e.skipped).map((e) => `${e.pass}:${e.task}`)).toEqual([
      "signatures:0",
      "signatures:1",
      "signatures:2",
      "buckets:exact",
      ...Array.from({ length: 6 }, (_, b) => `buckets:${b}`),
    ]);
    expect(await outputs(out)).toEqual(oneGoOut);
  });

  it("removes lines in more than --line-threshold documents and drops documents left too short", async () => {
    const out = join(dir, "lines");
    const summary = await runDedup({
      inputs,
      output: out,
      rejectsPath: join(dir, "lines.rejects.jsonl"),
      settings: { kinds: ["exact", "minhash", "lines"], lineThreshold: 3, minWords: 200 },
    });
    const kept = Object.values(await outputs(out)).flat() as Array<{ text: string }>;
    const boilerplate = normalizeText(BOILERPLATE);
    expect(kept.filter((r) => r.text.split("\n").some((l) => normalizeText(l) === boilerplate))).toEqual([]);
    expect(summary.clusters?.frequentLines).toBeGreaterThanOrEqual(1);
    expect(summary.documentsEdited + summary.dropped.lines).toBeGreaterThan(0);
    const lines = readFileSync(join(dir, "lines.rejects.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const edited = lines.filter((l) => l.kind === "lines");
    expect(edited.length).toBe(summary.documentsEdited + summary.dropped.lines);
    expect(edited.every((l) => l.lines_removed >= 1 && l.reason === "duplicate")).toBe(true);
    const byId = new Map(kept.map((r) => [(r as unknown as { warc_record_id: string }).warc_record_id, r.text]));
    for (const l of edited) {
      if (l.kept) expect(wordCount(byId.get(l.id) as string)).toBeGreaterThanOrEqual(200);
      else expect(byId.has(l.id)).toBe(false);
    }
  });

  it("refuses other inputs or settings for a state folder, and a pass before the one it needs", async () => {
    const out = join(dir, "refused");
    await expect(runDedup({ inputs, output: out, pass: "buckets" })).rejects.toThrow(/needs every signature task done first/);
    await expect(runDedup({ inputs: [inputs[0]], output: out, pass: "signatures" })).rejects.toThrow(UsageError);
    await expect(runDedup({ inputs, output: out, settings: { minSimilarity: 0.5 } })).rejects.toThrow(/settings differ/);
    await expect(runDedup({ inputs: [join(dir, "missing.jsonl")], output: join(dir, "x") })).rejects.toThrow(/cannot open input/);
  });

  it("refuses, for a caller of runDedup too, an output that is an input reached through a link or a link's ..", async () => {
    // A folder of inputs, its copy's bytes to compare, and two names for it that strings do not tell.
    const input = join(dir, "guarded");
    mkdirSync(join(input, "sub"), { recursive: true });
    copyFileSync(inputs[0], join(input, "a.jsonl"));
    const before = readFileSync(join(input, "a.jsonl"));
    symlinkSync(input, join(dir, "guarded-link"));
    // guarded-deep/.. is guarded/ for the file system (the link's parent), but dir/ for path.resolve.
    symlinkSync(join(input, "sub"), join(dir, "guarded-deep"));
    for (const output of [join(dir, "guarded-link"), `${join(dir, "guarded-deep")}/..`]) {
      const run = runDedup({ inputs: [input], output });
      await expect(run).rejects.toThrow(UsageError);
      await expect(run).rejects.toThrow(/is also an input \(input .*guarded(\/a\.jsonl)?\)/);
    }
    // A rejects file named through the link, and a state folder that is the input folder.
    const out = join(dir, "guarded-out");
    await expect(runDedup({ inputs: [input], output: out, rejectsPath: join(dir, "guarded-link", "a.jsonl") })).rejects.toThrow(
      /^--rejects .*guarded-link\/a\.jsonl is also an input/,
    );
    // Files that are not read are not written over either: a hidden one, in a hidden folder.
    mkdirSync(join(input, ".notes"));
    writeFileSync(join(input, ".notes", "keep.txt"), "mine\n");
    await expect(runDedup({ inputs: [input], output: out, rejectsPath: join(dir, "guarded-link", ".notes", "keep.txt") })).rejects.toThrow(
      /^--rejects .*keep\.txt is also an input/,
    );
    await expect(runDedup({ inputs: [input], output: out, state: `${join(dir, "guarded-deep")}/..` })).rejects.toThrow(
      /^--state .*guarded-deep\/\.\. is also an input/,
    );
    // Inputs taken from a state folder's plan are checked the same way.
    await runDedup({ inputs: [input], output: out, state: join(dir, "guarded-state") });
    await expect(runDedup({ inputs: [], output: join(dir, "guarded-link"), state: join(dir, "guarded-state") })).rejects.toThrow(
      /^-o .*guarded-link\/a\.jsonl is also an input/,
    );
    // Nothing was written over the input or beside it.
    expect(readFileSync(join(input, "a.jsonl"))).toEqual(before);
    expect(readdirSync(input).sort()).toEqual([".notes", "a.jsonl", "sub"]);
    expect(readFileSync(join(input, ".notes", "keep.txt"), "utf8")).toBe("mine\n");
    expect(readdirSync(join(input, "sub"))).toEqual([]);
  });

  it("takes the listing the caller checked, and only for the paths it was checked for", async () => {
    const paths = { inputs, output: join(dir, "checked-out") };
    const checked = await checkedInputs(paths);
    expect(checked.listing.inputs.map((i) => i.name)).toEqual(["a.jsonl", "b.jsonl.gz", "c.jsonl"]);
    await expect(runDedup({ ...paths, output: join(dir, "other-out"), checked })).rejects.toThrow(/made for other inputs or outputs/);
    const summary = await runDedup({ ...paths, checked });
    expect(await outputs(paths.output)).toEqual(oneGoOut);
    // The process's real peak memory, also from a run with nothing left to do.
    const again = await runDedup({ ...paths });
    expect([again.tasksRun, again.tasksSkipped]).toEqual([0, summary.tasksRun]);
    expect(again.peakRssBytes).toBeGreaterThan(20e6);
    expect(again.peakRssBytes).toBeGreaterThanOrEqual(summary.peakRssBytes);
  });

  it("reads a per-input tree recursively, only outputs marked done, with the same result as the flat files", async () => {
    // The three inputs as clean --paths-file leaves them: nested, each committed with its done marker.
    const tree = join(dir, "tree");
    const names = ["a.jsonl", "b/b.jsonl.gz", "c/x/c.parquet"];
    for (let f = 0; f < names.length; f++) {
      const output = join(tree, names[f]);
      mkdirSync(dirname(output), { recursive: true });
      const staged = stagingPathFor(output);
      copyFileSync(inputs[f], staged);
      await commitOutput(staged, output, { input: names[f], documents: 0 });
    }
    // What else such a tree holds: rejects and a manifest beside the outputs, a staged output of a dead task.
    writeFileSync(join(tree, "b", "b.rejects.jsonl"), `${JSON.stringify({ url: "x", reason: "unreadable", text: "x" })}\n`);
    writeFileSync(join(tree, "a.jsonl.manifest"), "{}\n");
    const out = join(dir, "tree-out");
    const summary = await runDedup({ inputs: [tree], output: out, rejectsPath: join(dir, "tree.rejects.jsonl") });
    expect(summary.inputs).toBe(3);
    expect(await outputs(out)).toEqual({
      "a.jsonl": oneGoOut["a.jsonl"],
      "b/b.jsonl.gz": oneGoOut["b.jsonl.gz"],
      "c/x/c.jsonl": oneGoOut["c.jsonl"],
    });
    const rejects = (path: string) =>
      readFileSync(path, "utf8")
        .trim()
        .split("\n")
        .map((l) => (({ source: _s, duplicate_of_source: _d, ...rest }) => rest)(JSON.parse(l)));
    expect(rejects(join(dir, "tree.rejects.jsonl"))).toEqual(rejects(join(dir, "one-go.rejects.jsonl")));

    // An output without its done marker, and one still staged: refused by name (exit 3), or left out when asked.
    const unmarked = join(tree, "d", "d.jsonl");
    mkdirSync(dirname(unmarked));
    copyFileSync(inputs[0], unmarked);
    writeFileSync(join(tree, "c", ".e.jsonl.gz.otherhost-12-abcd0123.staging.jsonl.gz"), "");
    const refused = runDedup({ inputs: [tree], output: join(dir, "tree-refused") });
    await expect(refused).rejects.toThrow(InputError);
    await expect(refused).rejects.toThrow(
      /2 output\(s\) of a per-input run are not marked done .*d\/d\.jsonl, .*\.e\.jsonl\.gz\..*staging.*--skip-incomplete/,
    );
    expect(existsSync(join(dir, "tree-refused"))).toBe(false);
    const skipped = await runDedup({ inputs: [tree], output: join(dir, "tree-skipped"), skipIncomplete: true });
    expect(skipped.incomplete.map((p) => relative(tree, p))).toEqual(["d/d.jsonl", "c/.e.jsonl.gz.otherhost-12-abcd0123.staging.jsonl.gz"]);
    expect(await outputs(join(dir, "tree-skipped"))).toEqual(await outputs(out));
  });

  it("lists a folder's files in the byte order of their paths inside it, not in a locale's", async () => {
    const folder = join(dir, "order");
    for (const name of ["b/x.jsonl", "a/z.jsonl", "a.jsonl", "a-b.jsonl", "B.jsonl", "a.jsonl.done.txt", "z.txt"]) {
      mkdirSync(dirname(join(folder, name)), { recursive: true });
      writeFileSync(join(folder, name), "{}\n");
    }
    const listing = await listInputs([folder]);
    expect(listing.inputs.map((i) => i.name)).toEqual(["B.jsonl", "a-b.jsonl", "a.jsonl", "a/z.jsonl", "b/x.jsonl"]);
    expect(listing.incomplete).toEqual([]);
  });

  it("reads a file named twice (directly, through its folder or a hard link) once", async () => {
    const link = join(dir, "in-link.jsonl");
    linkSync(inputs[0], link);
    const out = join(dir, "twice");
    const summary = await runDedup({ inputs: [join(dir, "in"), inputs[1], link], output: out });
    expect(summary.inputs).toBe(3);
    expect(summary.repeated).toEqual([inputs[1], link]);
    expect(summary.documents).toBe(texts.length);
    expect(await outputs(out)).toEqual(oneGoOut);
  });

  it("refuses a --text-field that no row has, naming the fields there are", async () => {
    const run = runDedup({ inputs, output: join(dir, "no-field"), settings: { textField: "body" } });
    await expect(run).rejects.toThrow(UsageError);
    await expect(run).rejects.toThrow(/no row of .*a\.jsonl has the text field "body"; its rows have: .*\burl\b.*\bwarc_record_id\b/);
    await expect(run).rejects.toThrow(/\btext\b/);
    // The failed task left no file that looks finished, nor temporary ones.
    expect(readdirSync(join(dir, "no-field", ".dedup", "signatures"))).toEqual([]);
  });

  const N = { signatures: 2, buckets: 4, clusters: 1, filter: 2 } as const;

  it("runs each pass as array tasks of ranks 0..N-1, each doing items i mod N = rank, with byte-identical outputs", async () => {
    const out = join(dir, "array");
    const rejectsPath = join(dir, "array.rejects.jsonl");
    const done: Record<string, string[]> = {};
    for (const pass of ["signatures", "buckets", "clusters", "filter"] as DedupPass[]) {
      for (let rank = 0; rank < N[pass]; rank++) {
        const events: TaskEvent[] = [];
        // Rank 1 from Slurm's environment, as an array job starts it; the others from the flags.
        const fromSlurm = rank === 1;
        const summary = await runDedup({
          inputs: pass === "signatures" ? inputs : [],
          output: out,
          pass,
          shard: fromSlurm ? {} : { rank, worldSize: N[pass] },
          env: fromSlurm ? { SLURM_ARRAY_TASK_ID: "1", SLURM_ARRAY_TASK_COUNT: String(N[pass]) } : {},
          rejectsPath: pass === "filter" ? rejectsPath : undefined,
          runEntries: 16,
          onTask: (t) => events.push(t),
        });
        expect(summary.shard?.rank ?? 0).toBe(rank);
        done[`${pass}:${rank}`] = events.map((e) => e.task);
      }
    }
    const bands = ["exact", ...Array.from({ length: 14 }, (_, b) => String(b))];
    expect(done).toEqual({
      "signatures:0": ["0", "2"],
      "signatures:1": ["1"],
      ...Object.fromEntries([0, 1, 2, 3].map((r) => [`buckets:${r}`, bands.filter((_, i) => i % 4 === r)])),
      "clusters:0": [""],
      "filter:0": ["0", "2"],
      "filter:1": ["1"],
    });
    expect(outputBytes(out)).toEqual(outputBytes(join(dir, "one-go")));
    expect(readFileSync(rejectsPath, "utf8")).toBe(readFileSync(join(dir, "one-go.rejects.jsonl"), "utf8"));
  });

  it("refuses a world size with no pass, with --shard, or above 1 for the cluster pass", async () => {
    const out = join(dir, "array-refused");
    await expect(runDedup({ inputs, output: out, shard: { rank: 0, worldSize: 2 } })).rejects.toThrow(/give --pass too/);
    await expect(runDedup({ inputs, output: out, pass: "signatures", shards: [0], shard: { rank: 0, worldSize: 2 } })).rejects.toThrow(
      /either by --shard\/--band or by --rank\/--world-size/,
    );
    await expect(runDedup({ inputs, output: out, pass: "clusters", shard: { rank: 0, worldSize: 2 } })).rejects.toThrow(
      /the clusters pass is one task/,
    );
  });

  describe("an input changed between passes", () => {
    /** A run through the clusters pass over copies of the inputs, then `change` applied to the second. */
    async function changedBeforeFilter(name: string, change: (path: string) => void): Promise<{ out: string; copies: string[] }> {
      const folder = join(dir, `${name}-in`);
      mkdirSync(folder);
      const copies = inputs.map((p) => join(folder, p.slice(p.lastIndexOf("/") + 1)));
      inputs.forEach((p, i) => copyFileSync(p, copies[i]));
      // Whole seconds, so that a change can put the same modification time back exactly.
      for (const copy of copies) utimesSync(copy, SOME_TIME, SOME_TIME);
      const out = join(dir, name);
      for (const pass of ["signatures", "buckets", "clusters"] as DedupPass[]) await runDedup({ inputs: copies, output: out, pass });
      change(copies[1]);
      return { out, copies };
    }

    const SOME_TIME = 1_700_000_000;

    /** The same rows in another order: the same size and time, other documents at each row. */
    const reorder = (path: string): void => {
      const rows = readFileSync(path, "utf8").trim().split("\n");
      writeFileSync(path, `${[...rows.slice(1), rows[0]].join("\n")}\n`);
      utimesSync(path, SOME_TIME, SOME_TIME);
    };

    it("of the same size and time is refused by its content hash, nothing written", async () => {
      const { out, copies } = await changedBeforeFilter("changed-same-size", (p) => {
        // b.jsonl.gz: one byte of its compressed data flipped, its size and time as they were.
        const gz = readFileSync(p);
        gz[gz.length - 9] ^= 0xff;
        writeFileSync(p, gz);
        utimesSync(p, SOME_TIME, SOME_TIME);
      });
      const run = runDedup({ inputs: [], output: out, pass: "filter" });
      await expect(run).rejects.toThrow(InputError);
      await expect(run).rejects.toThrow(/this input changed since the dedup plan was made \(content hash differs\).*new --state/);
      await expect(run).rejects.toThrow(copies[1]);
      expect(existsSync(join(out, "b.jsonl.gz"))).toBe(false);
    });

    it("of another size is refused by its size", async () => {
      const { out } = await changedBeforeFilter("changed-size", (p) => writeFileSync(p, readFileSync(p).subarray(0, 100)));
      await expect(runDedup({ inputs: [], output: out, pass: "filter", shards: [1] })).rejects.toThrow(/size \d+ -> 100 bytes/);
    });

    it("that slips past the file check is caught row by row: no document dropped in another's place", async () => {
      const { out, copies } = await changedBeforeFilter("changed-rows", () => {});
      // A plain JSONL input with its rows reordered (same size and time), and the signature task's record told it is the file it read.
      const plain = copies[0];
      reorder(plain);
      const metaFile = join(out, ".dedup", "signatures", "0.json");
      const meta = JSON.parse(readFileSync(metaFile, "utf8"));
      expect(meta.hash).toMatch(/^[0-9a-f]{16}$/);
      meta.hash = (await identityOf(plain)).hash;
      writeFileSync(metaFile, JSON.stringify(meta));
      const run = runDedup({ inputs: [], output: out, pass: "filter", shards: [0] });
      await expect(run).rejects.toThrow(InputError);
      await expect(run).rejects.toThrow(/row 0 is not the document the signature pass read there/);
      expect(existsSync(join(out, "a.jsonl"))).toBe(false);
    });
  });
});
