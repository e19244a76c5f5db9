// Locks on outputs (lock.ts), between real processes: the compiled module is run by child
// processes, so "another run" is another pid, alive or dead, as in production. Build first
// (`npx tsc -b`): the children import dist/lock.js.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { BusyError } from "@winnow/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockOutput, lockPathFor } from "./lock.js";

const LOCK_MODULE = new URL("../dist/lock.js", import.meta.url).href;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-lock-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = (...parts: string[]): string => join(dir, ...parts);

/** A pid that was alive a moment ago and is not now. */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", ""]).pid as number;
}

/** When this test began: after its own process and its parent started. */
const NOW = new Date().toISOString();

function fakeLock(path: string, holder: { host: string; pid: number; id: string; started?: string }): void {
  writeFileSync(path, `${JSON.stringify({ started: NOW, ...holder })}\n`);
}

/**
 * A child process that takes the lock of `target`, prints "locked" or "busy", holds it for
 * `holdMs` (null: until its standard input is closed) and releases it (or is killed before).
 */
function taker(target: string, holdMs: number | null) {
  const code = `
    const { lockOutput } = await import(${JSON.stringify(LOCK_MODULE)});
    try {
      const lock = await lockOutput(${JSON.stringify(target)});
      process.stdout.write("locked\\n");
      await new Promise((r) => ${holdMs === null ? 'process.stdin.on("data", () => {}).on("end", r)' : `setTimeout(r, ${holdMs})`});
      await lock.release();
    } catch (error) {
      process.stdout.write(error.name === "BusyError" ? "busy\\n" : "error " + error.message + "\\n");
    }`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", code], {
    stdio: [holdMs === null ? "pipe" : "ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d));
  const firstLine = new Promise<string>((resolve) => child.stdout.on("data", () => out.includes("\n") && resolve(out.trim())));
  const ended = new Promise<string>((resolve) => child.on("close", () => resolve(out.trim())));
  return { child, firstLine, ended };
}

describe("lockOutput", () => {
  it("names host, pid and start in a lock beside the output, and release removes it", async () => {
    const lock = await lockOutput(at("a.jsonl"));
    expect(lock.path).toBe(at(".a.jsonl.lock"));
    const holder = JSON.parse(readFileSync(lock.path, "utf8"));
    expect(holder).toMatchObject({ host: hostname(), pid: process.pid, id: lock.holder.id });
    expect(Date.parse(holder.started)).toBeGreaterThan(Date.now() - 60_000);
    await lock.release();
    expect(existsSync(lock.path)).toBe(false);
    // Nothing else was left: the unique name the lock was written under is gone too.
    expect(readdirSync(dir).filter((n) => n.startsWith(".a.jsonl"))).toEqual([]);
  });

  it("refuses a second lock of the same output while the first is held, in this process or another", async () => {
    const first = await lockOutput(at("b.jsonl"));
    await expect(lockOutput(at("b.jsonl"))).rejects.toBeInstanceOf(BusyError);
    const other = taker(at("b.jsonl"), 0);
    expect(await other.ended).toBe("busy");
    await first.release();
    const again = taker(at("b.jsonl"), 0);
    expect(await again.ended).toBe("locked");
  });

  it("takes over a stale lock of a dead process on this host", async () => {
    const path = await lockPathFor(at("c.jsonl"));
    fakeLock(path, { host: hostname(), pid: deadPid(), id: "stale" });
    const lock = await lockOutput(at("c.jsonl"));
    expect(JSON.parse(readFileSync(path, "utf8")).pid).toBe(process.pid);
    await lock.release();
    expect(readdirSync(dir).filter((n) => n.startsWith(".c.jsonl"))).toEqual([]);
  });

  it("refuses a lock of a live process, and one of another host, naming the holder and what to do", async () => {
    const live = await lockPathFor(at("d.jsonl"));
    fakeLock(live, { host: hostname(), pid: process.ppid, id: "live" });
    const error = await lockOutput(at("d.jsonl")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BusyError);
    expect((error as BusyError).exitCode).toBe(75);
    expect((error as Error).message).toBe(
      `the output ${at("d.jsonl")} is being written by another winnow run (pid ${process.ppid} on this host since ${NOW}): wait for it to end, or stop it (${live})`,
    );
    const remote = await lockPathFor(at("e.jsonl"));
    // A dead pid, but on another machine: whether it runs cannot be told from here.
    fakeLock(remote, { host: "elsewhere.example", pid: deadPid(), id: "remote" });
    await expect(lockOutput(at("e.jsonl"))).rejects.toThrow(/pid \d+ on host elsewhere\.example .*remove the lock file/);
    expect(JSON.parse(readFileSync(remote, "utf8")).id).toBe("remote");
  });

  it("takes over another host's lock whose heartbeat stopped (untouched for five minutes: a node that went down)", async () => {
    const path = await lockPathFor(at("gone.jsonl"));
    fakeLock(path, { host: "elsewhere.example", pid: 4242, id: "gone" });
    const old = new Date(Date.now() - 6 * 60_000);
    utimesSync(path, old, old);
    const lock = await lockOutput(at("gone.jsonl"));
    expect(JSON.parse(readFileSync(path, "utf8"))).toMatchObject({ host: hostname(), pid: process.pid });
    await lock.release();
    // A fresh one (touched a minute ago) is a live run's.
    fakeLock(path, { host: "elsewhere.example", pid: 4242, id: "alive" });
    const recent = new Date(Date.now() - 60_000);
    utimesSync(path, recent, recent);
    await expect(lockOutput(at("gone.jsonl"))).rejects.toBeInstanceOf(BusyError);
  });

  it("waits, when asked, for a live holder to release, telling once; an abort ends the wait as busy", async () => {
    const holder = taker(at("wait.jsonl"), 1500);
    expect(await holder.firstLine).toBe("locked");
    const told: unknown[] = [];
    const started = Date.now();
    const lock = await lockOutput(at("wait.jsonl"), { wait: { pollMs: 100, onWait: (h) => told.push(h?.pid) } });
    expect(Date.now() - started).toBeGreaterThan(500);
    expect(told).toEqual([holder.child.pid]);
    expect(await holder.ended).toBe("locked");
    // Held by this process now: a wait that is aborted gives up with the BusyError.
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 300);
    await expect(lockOutput(at("wait.jsonl"), { wait: { pollMs: 100, signal: stop.signal } })).rejects.toBeInstanceOf(BusyError);
    await lock.release();
  });

  it("takes over a lock whose pid now belongs to a process started after it was taken (a reused pid)", async () => {
    const path = await lockPathFor(at("reused.jsonl"));
    // The parent runs, but started long after this lock claims to have been taken.
    fakeLock(path, { host: hostname(), pid: process.ppid, id: "reused", started: "2001-01-01T00:00:00.000Z" });
    const lock = await lockOutput(at("reused.jsonl"));
    expect(JSON.parse(readFileSync(path, "utf8")).pid).toBe(process.pid);
    await lock.release();
  });

  it("lets exactly one of many processes racing for one stale lock win", async () => {
    const path = await lockPathFor(at("race.jsonl"));
    for (let round = 0; round < 3; round++) {
      fakeLock(path, { host: hostname(), pid: deadPid(), id: `stale-${round}` });
      // The winner holds the lock until every taker has answered.
      const takers = Array.from({ length: 6 }, () => taker(at("race.jsonl"), null));
      const answers = await Promise.all(takers.map((t) => t.firstLine));
      for (const t of takers) t.child.stdin?.end();
      expect(answers.filter((a) => a === "locked")).toHaveLength(1);
      expect(answers.filter((a) => a === "busy")).toHaveLength(5);
      await Promise.all(takers.map((t) => t.ended));
      expect(existsSync(path)).toBe(false);
    }
    expect(readdirSync(dir).filter((n) => n.startsWith(".race.jsonl"))).toEqual([]);
  });

  it("is released when the process is stopped by SIGTERM", async () => {
    const holder = taker(at("f.jsonl"), 60_000);
    expect(await holder.firstLine).toBe("locked");
    const path = await lockPathFor(at("f.jsonl"));
    expect(existsSync(path)).toBe(true);
    holder.child.kill("SIGTERM");
    await holder.ended;
    expect(holder.child.signalCode).toBe("SIGTERM");
    expect(existsSync(path)).toBe(false);
  });

  it("locks a path reached through a link at the file it ends at", async () => {
    writeFileSync(at("target.jsonl"), "");
    symlinkSync("target.jsonl", at("via-link.jsonl"));
    const lock = await lockOutput(at("target.jsonl"));
    await expect(lockOutput(at("via-link.jsonl"))).rejects.toBeInstanceOf(BusyError);
    await lock.release();
  });
});
