// The program loads a subcommand's modules only when that subcommand runs.
import { describe, expect, it } from "vitest";
import { createProgram } from "./program.js";

const ALL = ["clean", "stats", "dedup", "eval", "train", "label", "inspect", "label-ui", "launch"];
const names = async (argv: string[]) => (await createProgram(argv)).commands.map((c) => c.name());

describe("subcommands on demand", () => {
  it("registers only the subcommand named first, none for --version", async () => {
    expect(await names(["launch", "slurm", "--help"])).toEqual(["launch"]);
    expect(await names(["clean", "x.warc.gz", "-o", "out.jsonl"])).toEqual(["clean"]);
    expect(await names(["--version"])).toEqual([]);
  });

  it("registers all of them, in the help's order, for the root help and for a name it does not know", async () => {
    expect(await names([])).toEqual(ALL);
    expect(await names(["--help"])).toEqual(ALL);
    expect(await names(["claen"])).toEqual(ALL);
  });
});
