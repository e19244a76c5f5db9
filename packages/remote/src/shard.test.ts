import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { UsageError } from "@winnow/errors";
import { describe, expect, it } from "vitest";
import { joinBase, readPathsList } from "./paths-list.js";
import { resolveShard, takeShard } from "./shard.js";

describe("resolveShard", () => {
  it("flags win over the environment", () => {
    expect(resolveShard({ rank: 2, worldSize: 4 }, { SLURM_ARRAY_TASK_ID: "0", SLURM_ARRAY_TASK_COUNT: "9" })).toEqual({
      rank: 2,
      worldSize: 4,
      source: "flags",
    });
  });

  it("Slurm: task id from the array's minimum, count or min/max", () => {
    expect(resolveShard({}, { SLURM_ARRAY_TASK_ID: "3", SLURM_ARRAY_TASK_COUNT: "4" })).toMatchObject({ rank: 3, worldSize: 4 });
    const oneBased = { SLURM_ARRAY_TASK_ID: "5", SLURM_ARRAY_TASK_MIN: "1", SLURM_ARRAY_TASK_MAX: "10", SLURM_ARRAY_TASK_COUNT: "10" };
    expect(resolveShard({}, oneBased)).toEqual({ rank: 4, worldSize: 10, source: "SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN/MAX" });
    const stepped = { SLURM_ARRAY_TASK_ID: "6", SLURM_ARRAY_TASK_MIN: "0", SLURM_ARRAY_TASK_MAX: "8", SLURM_ARRAY_TASK_STEP: "2" };
    expect(resolveShard({}, stepped)).toMatchObject({ rank: 3, worldSize: 5 });
  });

  it("Kubernetes and AWS Batch: the index, with the world size from the flag (or WINNOW_WORLD_SIZE on Batch)", () => {
    expect(resolveShard({ worldSize: 8 }, { JOB_COMPLETION_INDEX: "7" })).toEqual({
      rank: 7,
      worldSize: 8,
      source: "JOB_COMPLETION_INDEX",
    });
    expect(() => resolveShard({}, { JOB_COMPLETION_INDEX: "7" })).toThrow(/give --world-size with JOB_COMPLETION_INDEX/);
    expect(resolveShard({}, { AWS_BATCH_JOB_ARRAY_INDEX: "1", WINNOW_WORLD_SIZE: "3" })).toMatchObject({ rank: 1, worldSize: 3 });
  });

  it("nothing set: no shard; bad values: a usage error", () => {
    expect(resolveShard({}, {})).toBeNull();
    expect(() => resolveShard({ rank: 4, worldSize: 4 }, {})).toThrow(UsageError);
    expect(() => resolveShard({ worldSize: 4 }, {})).toThrow(/--world-size needs --rank/);
    expect(() => resolveShard({}, { SLURM_ARRAY_TASK_ID: "x", SLURM_ARRAY_TASK_COUNT: "2" })).toThrow(/whole number/);
  });

  it("the shards of a world cover the list once", () => {
    const items = Array.from({ length: 23 }, (_, i) => i);
    const shards = [0, 1, 2, 3].map((rank) => takeShard(items, { rank, worldSize: 4, source: "flags" }));
    expect(shards[1]).toEqual([1, 5, 9, 13, 17, 21]);
    expect(shards.flat().sort((a, b) => a - b)).toEqual(items);
  });
});

describe("readPathsList", () => {
  const dir = mkdtempSync(join(tmpdir(), "winnow-paths-"));
  const lines = "crawl-data/a.warc.gz\n\n# a comment\r\nhttps://elsewhere.org/b.warc.gz\n/data/c.warc\n";

  it("reads plain and gzip lists, joining relative lines to the base", async () => {
    writeFileSync(join(dir, "plain.paths"), lines);
    writeFileSync(join(dir, "warc.paths.gz"), gzipSync(lines));
    for (const file of ["plain.paths", "warc.paths.gz"]) {
      const list = await readPathsList(join(dir, file), "s3://commoncrawl/");
      expect(list).toEqual([
        { location: "s3://commoncrawl/crawl-data/a.warc.gz", listed: "crawl-data/a.warc.gz", index: 0 },
        { location: "https://elsewhere.org/b.warc.gz", listed: "https://elsewhere.org/b.warc.gz", index: 1 },
        { location: "/data/c.warc", listed: "/data/c.warc", index: 2 },
      ]);
    }
  });

  it("a missing list is an input error naming it", async () => {
    await expect(readPathsList(join(dir, "nope.gz"))).rejects.toThrow(/cannot read the paths list: no such file/);
  });

  it("joinBase", () => {
    expect(joinBase("x/y.warc.gz", "https://data.commoncrawl.org")).toBe("https://data.commoncrawl.org/x/y.warc.gz");
    expect(joinBase("./y.warc", "mirror/")).toBe("mirror/y.warc");
    expect(joinBase("y.warc", undefined)).toBe("y.warc");
  });
});
