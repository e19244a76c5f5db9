// `winnow clean` with one output per input: a paths list shared by rank (from flags or from a
// Slurm array's environment), done markers honoured on a second run, and a failed input's exit status.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWinnow, stderrMessages } from "../test/run-winnow.js";

const SAMPLE = fileURLToPath(new URL("../../../fixtures/sample.warc.gz", import.meta.url));
const ARC = fileURLToPath(new URL("../../../fixtures/warc/example.arc.gz", import.meta.url));
const QUICK = ["--model", "heuristic", "--workers", "0", "--no-lang-id", "--log-level", "info"];

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-per-input-cli-"));
  mkdirSync(join(dir, "mirror", "seg"), { recursive: true });
  copyFileSync(SAMPLE, join(dir, "mirror", "seg", "sample.warc.gz"));
  copyFileSync(ARC, join(dir, "mirror", "seg", "example.arc.gz"));
  writeFileSync(join(dir, "warc.paths.gz"), gzipSync("seg/sample.warc.gz\nseg/example.arc.gz\n"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const outputs = (out: string): string[] => (existsSync(join(out, "seg")) ? readdirSync(join(out, "seg")).sort() : []);

describe("winnow clean --paths-file", () => {
  it("each task takes its share, rank from the flags or from Slurm's environment, and logs which", async () => {
    const out = join(dir, "out");
    const common = ["clean", "--paths-file", "warc.paths.gz", "--base-url", "mirror/", "-o", out, ...QUICK];
    const first = await runWinnow([...common, "--rank", "0", "--world-size", "2"], dir);
    expect(first.stderr).not.toMatch(/internal error/);
    expect(first.code).toBe(0);
    expect(stderrMessages(first.stderr).join("\n")).toMatch(
      /winnow: task 0 of 2 \(flags\): 1 of 2 inputs; 1 done now, 0 done before; wrote \d+ documents/,
    );
    expect(outputs(out)).toEqual(["sample.jsonl.gz", "sample.jsonl.gz.done"]);

    const slurm = { ...process.env, SLURM_ARRAY_TASK_ID: "1", SLURM_ARRAY_TASK_MIN: "0", SLURM_ARRAY_TASK_MAX: "1" };
    const second = await runWinnow(common, dir, undefined, slurm);
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/task 1 of 2 \(from SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN\/MAX\)/);
    expect(outputs(out)).toEqual(["example.jsonl.gz", "example.jsonl.gz.done", "sample.jsonl.gz", "sample.jsonl.gz.done"]);

    const again = await runWinnow([...common, "--rank", "0", "--world-size", "1", "--compress", "gz"], dir);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/task 0 of 1 \(flags\): 2 of 2 inputs; 0 done now, 2 done before/);
    // A task with nothing left to do still reports the memory it took (it once said 0).
    const peak = Number(/peak RSS (\d+) MB/.exec(stderrMessages(again.stderr).join("\n"))?.[1]);
    expect(peak).toBeGreaterThan(20);
  });

  it("an input that cannot be read: the others are done, exit status 3, rejects name it", async () => {
    writeFileSync(join(dir, "missing.paths"), "seg/sample.warc.gz\nseg/gone.warc.gz\n");
    const out = join(dir, "out-missing");
    const r = await runWinnow(
      [
        "clean",
        "--paths-file",
        "missing.paths",
        "--base-url",
        "mirror",
        "-o",
        out,
        "--rejects",
        join(dir, "rej"),
        "--compress",
        "none",
        ...QUICK,
      ],
      dir,
    );
    expect(r.code).toBe(3);
    expect(stderrMessages(r.stderr).join("\n")).toMatch(
      /winnow: 1 of 2 inputs could not be read; run the task again to retry them \(.*gone\.warc\.gz: cannot open input: no such file/,
    );
    expect(outputs(out)).toEqual(["sample.jsonl", "sample.jsonl.done"]);
    expect(readdirSync(join(dir, "rej", "seg")).sort()).toEqual(["gone.rejects.jsonl", "sample.rejects.jsonl"]);
  });

  it("refuses what cannot go together", async () => {
    const noWorld = await runWinnow(["clean", "--paths-file", "warc.paths.gz", "-o", "o", ...QUICK], dir, undefined, {
      ...process.env,
      JOB_COMPLETION_INDEX: "3",
    });
    expect([noWorld.code, stderrMessages(noWorld.stderr).join("\n")]).toEqual([
      2,
      "winnow: the world size is not known: give --world-size with JOB_COMPLETION_INDEX (JOB_COMPLETION_INDEX)",
    ]);
    const resume = await runWinnow(["clean", "--paths-file", "warc.paths.gz", "-o", "o", "--resume", ...QUICK], dir);
    expect(resume.code).toBe(2);
    const dedup = await runWinnow(["clean", "--paths-file", "warc.paths.gz", "-o", "o", "--dedup", "exact", ...QUICK], dir);
    expect([dedup.code, stderrMessages(dedup.stderr, 50).join("\n")]).toEqual([
      2,
      "winnow: one output per input is deduplicated afterwards, across all outputs: run winnow dedup over them (--dedup)",
    ]);
    const none = await runWinnow(["clean", "-o", "o.jsonl"], dir);
    expect([none.code, stderrMessages(none.stderr).join("\n")]).toEqual([
      2,
      "winnow: no inputs: give files, folders, or - for standard input (or --paths-file) (clean)",
    ]);
  });
});

describe("winnow clean with a URL input, one output", () => {
  it("reads http:// inputs as it reads files", async () => {
    const data = readFileSync(SAMPLE);
    const server = createServer((req, res) => {
      const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? "")?.[1] ?? 0);
      if (from >= data.length) return void res.writeHead(416).end();
      const headers = { "content-length": data.length - from, "accept-ranges": "bytes" };
      if (from > 0) res.writeHead(206, { ...headers, "content-range": `bytes ${from}-${data.length - 1}/${data.length}` });
      else res.writeHead(200, headers);
      res.end(data.subarray(from));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sample.warc.gz`;
      const remote = await runWinnow(["clean", url, "-o", "remote.jsonl", ...QUICK], dir);
      const local = await runWinnow(["clean", SAMPLE, "-o", "local.jsonl", ...QUICK], dir);
      expect([remote.code, local.code]).toEqual([0, 0]);
      const docs = (f: string) => readFileSync(join(dir, f), "utf8").replaceAll(url, SAMPLE).split("\n").sort();
      expect(docs("remote.jsonl")).toEqual(docs("local.jsonl"));
      expect(docs("local.jsonl").length).toBeGreaterThan(10);
    } finally {
      server.close();
    }
  });
});
