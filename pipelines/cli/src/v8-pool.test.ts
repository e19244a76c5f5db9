import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { noteV8Pool } from "./commands/clean.js";

/** The messages a run's logger would write, at the level `winnow clean` logs by default. */
function notes(workers: number): string[] {
  const lines: string[] = [];
  const logger = pino({ level: "info", base: undefined }, { write: (line: string) => lines.push(JSON.parse(line).msg) });
  noteV8Pool(logger, workers);
  return lines;
}

const saved = process.env.NODE_OPTIONS;
afterEach(() => {
  if (saved === undefined) delete process.env.NODE_OPTIONS;
  else process.env.NODE_OPTIONS = saved;
});

describe("noteV8Pool", () => {
  it("tells a run of more than 8 workers how to start Node with a V8 platform thread per worker", () => {
    delete process.env.NODE_OPTIONS;
    const [note, ...rest] = notes(16);
    expect(rest).toEqual([]);
    expect(note).toContain("16 worker threads share Node's 4 V8 background threads");
    expect(note).toContain("NODE_OPTIONS=--v8-pool-size=16");
    expect(notes(9)[0]).toContain("NODE_OPTIONS=--v8-pool-size=9");
  });

  it("says nothing at 8 workers or fewer, or where the pool size was given", () => {
    delete process.env.NODE_OPTIONS;
    for (const workers of [0, 1, 2, 8]) expect(notes(workers)).toEqual([]);
    process.env.NODE_OPTIONS = "--max-old-space-size=4096 --v8-pool-size=16";
    expect(notes(16)).toEqual([]);
    // The user's own choice is theirs, even a smaller one.
    process.env.NODE_OPTIONS = "--v8-pool-size=4";
    expect(notes(32)).toEqual([]);
  });
});
