import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { commitOutput, doneMarkerPath, isDone, perInputName, removeStaleStaged, stagingPathFor } from "./per-input.js";

describe("perInputName", () => {
  it("names the output from the input as listed", () => {
    const cc = "crawl-data/CC-MAIN-2024-10/segments/1707947473347.0/warc/CC-MAIN-20240220211055-20240221001055-00000.warc.gz";
    expect(perInputName(cc, ".jsonl.gz")).toBe(cc.replace(".warc.gz", ".jsonl.gz"));
    expect(perInputName(`s3://commoncrawl/${cc}`, ".jsonl")).toBe(cc.replace(".warc.gz", ".jsonl"));
    expect(perInputName("https://data.commoncrawl.org/a/b%20c.warc.zst?x=1", ".parquet")).toBe("a/b c.parquet");
    expect(perInputName("/data/x/../y.arc.gz", ".jsonl")).toBe("data/x/y.jsonl");
    expect(perInputName("./page.html", ".txt")).toBe("page.txt");
  });
});

describe("staging and done markers", () => {
  it("stages under a unique name beside the output, then renames it and marks it done", async () => {
    const dir = mkdtempSync(join(tmpdir(), "winnow-per-input-w-"));
    const output = join(dir, "x.jsonl.gz");
    const a = stagingPathFor(output);
    expect(dirname(a)).toBe(dir);
    expect(basename(a)).toMatch(/^\.x\.jsonl\.gz\..+-\d+-[0-9a-f]{8}\.staging\.jsonl\.gz$/);
    expect(stagingPathFor(output)).not.toBe(a);
    writeFileSync(a, "data");
    expect(await isDone(output)).toBe(false);
    await commitOutput(a, output, { input: "x.warc.gz", documents: 3 });
    expect(readFileSync(output, "utf8")).toBe("data");
    expect(await isDone(output)).toBe(true);
    expect(JSON.parse(readFileSync(doneMarkerPath(output), "utf8"))).toEqual({ input: "x.warc.gz", documents: 3 });
  });
});

describe("removeStaleStaged", () => {
  it("removes what dead processes of this host staged, and the temporary files their writers left, and nothing else", async () => {
    const dir = mkdtempSync(join(tmpdir(), "winnow-stale-staged-"));
    const output = join(dir, "en.jsonl");
    const dead = spawnSync(process.execPath, ["-e", ""]).pid as number;
    const host = hostname().replace(/[^A-Za-z0-9-]/g, "_");
    const staged = `.en.jsonl.${host}-${dead}-0a1b2c3d.staging.jsonl`;
    const names = [
      staged,
      `.${staged}.tmp-${dead}-4`,
      `.en.jsonl.${host}-${process.pid}-00000000.staging.jsonl`,
      `.en.jsonl.elsewhere-${dead}-00000000.staging.jsonl`,
      "en.jsonl",
    ];
    for (const name of names) writeFileSync(join(dir, name), "x");
    expect((await removeStaleStaged(output)).sort()).toEqual([join(dir, staged), join(dir, `.${staged}.tmp-${dead}-4`)].sort());
    expect(readdirSync(dir).sort()).toEqual(names.slice(2).sort());
  });
});
