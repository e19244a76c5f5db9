// `winnow inspect` and `winnow label-ui` as users run them (build first: `npx tsc -b`).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stderrMessages } from "../test/run-winnow.js";

const BIN = fileURLToPath(new URL("../bin/winnow.js", import.meta.url));
const SAMPLE_WARC = fileURLToPath(new URL("../../../fixtures/sample.warc.gz", import.meta.url));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-cli-inspect-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function start(args: string[]): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
}

function finish(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d: Buffer) => (stdout += d));
  child.stderr!.on("data", (d: Buffer) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const winnow = (args: string[]) => finish(start(args));

describe("winnow inspect", () => {
  it("writes a self-contained report and says how many documents it holds", async () => {
    const r = await winnow(["inspect", SAMPLE_WARC, "-o", "report.html", "--model", "heuristic", "--limit", "3"]);
    expect(r.code).toBe(0);
    expect(stderrMessages(r.stderr).at(-1)).toMatch(
      /^winnow: wrote report\.html: 3 documents \(limited to the first 3; --limit shows more\) from 1 input file, [\d.]+ MB, model heuristic; skipped 1 not-response$/,
    );
    const html = readFileSync(join(dir, "report.html"), "utf8");
    expect(html).toContain('<script type="application/json" id="winnow-data">');
    expect(html).toContain("a-brief-intro-to-git");
  });

  it("gives 'winnow: <what> (<where>)' and the usage or input status for mistakes", async () => {
    const missing = await winnow(["inspect", "nope.warc.gz", "-o", "r.html", "--model", "heuristic"]);
    expect([missing.code, stderrMessages(missing.stderr).join("\n")]).toEqual([
      3,
      "winnow: cannot open input: no such file or directory (nope.warc.gz)",
    ]);
    const limit = await winnow(["inspect", SAMPLE_WARC, "-o", "r.html", "--limit", "0"]);
    expect(limit.code).toBe(2);
    expect(stderrMessages(limit.stderr).join("\n")).toMatch(
      /^winnow: option '--limit <n>' argument '0' is invalid\. expected a whole number >= 1/,
    );
    const model = await winnow(["inspect", SAMPLE_WARC, "-o", "r.html", "--model", "no-such-model.onnx"]);
    expect(model.code).toBe(2);
    expect(stderrMessages(model.stderr).join("\n")).toMatch(
      /^winnow: no such model: give heuristic, mlp, bilstm, .*\(no-such-model\.onnx\)$/m,
    );
    writeFileSync(join(dir, "blocker"), "");
    const output = await winnow(["inspect", SAMPLE_WARC, "-o", "blocker/r.html", "--model", "heuristic"]);
    expect([output.code, stderrMessages(output.stderr).join("\n")]).toEqual([
      4,
      "winnow: cannot create report: a path component is not a directory (blocker/r.html)",
    ]);
  });
});

describe("winnow label-ui", () => {
  it("prints its address, serves the pages, saves, and stops cleanly on SIGINT", async () => {
    const child = start(["label-ui", "--data", SAMPLE_WARC, "--labels", "labels", "--port", "0", "--model", "heuristic", "--limit", "2"]);
    const done = finish(child);
    const url = await new Promise<string>((resolve) => {
      let out = "";
      child.stdout!.on("data", (d: Buffer) => {
        out += d;
        if (out.includes("\n")) resolve(out.split("\n")[0]);
      });
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const list = (await (await fetch(`${url}api/pages`)).json()) as { pages: Array<{ id: string }> };
    expect(list.pages.map((p) => p.id)).toHaveLength(2);
    const id = list.pages[0].id;
    const page = (await (await fetch(`${url}api/page?id=${encodeURIComponent(id)}`)).json()) as { fingerprint: string; labels: number[] };
    const saved = await fetch(`${url}api/labels?id=${encodeURIComponent(id)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ fingerprint: page.fingerprint, labels: page.labels }),
    });
    expect(saved.status).toBe(200);
    child.kill("SIGINT");
    const r = await done;
    expect(r.code).toBe(0);
    const file = JSON.parse(readFileSync(join(dir, ((await saved.json()) as { saved: string }).saved), "utf8"));
    expect(file).toMatchObject({ format: "winnow-block-labels", id, source: "hand", labels: page.labels });
  });

  it("gives 'winnow: <what> (<where>)' for missing data, a bad label directory and a taken port", async () => {
    const missing = await winnow(["label-ui", "--data", "nope", "--labels", "labels", "--model", "heuristic"]);
    expect([missing.code, stderrMessages(missing.stderr).join("\n")]).toEqual([3, "winnow: data not found (nope)"]);
    writeFileSync(join(dir, "broken.labels.json"), "{");
    const broken = await winnow(["label-ui", "--data", SAMPLE_WARC, "--labels", ".", "--model", "heuristic"]);
    expect(broken.code).toBe(2);
    expect(stderrMessages(broken.stderr).join("\n")).toMatch(/^winnow: .*broken\.labels\.json: not valid JSON \(--labels \.\)$/m);
    const taken = createServer();
    const port = await new Promise<number>((resolve) =>
      taken.listen(0, "127.0.0.1", () => resolve((taken.address() as { port: number }).port)),
    );
    try {
      const busy = await winnow(["label-ui", "--data", SAMPLE_WARC, "--labels", "labels", "--port", String(port), "--model", "heuristic"]);
      expect([busy.code, stderrMessages(busy.stderr).join("\n")]).toEqual([
        2,
        `winnow: port ${port} on 127.0.0.1 is in use (--port ${port})`,
      ]);
    } finally {
      taken.close();
    }
  });
});
