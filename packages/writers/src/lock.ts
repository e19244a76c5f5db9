/**
 * Locks on outputs, so that two runs never write one output at once (a job submitted twice, a
 * Slurm requeue overlapping the task it replaces, a second terminal). Every command takes one
 * per output, per per-input output, and for dedup's state folder, through this module.
 *
 * - A lock is a file beside what it locks, `.<name>.lock` (or `.<name>.<key>.lock` where one
 *   folder holds several independent tasks' locks), holding JSON: host, pid, start time and a
 *   random id. It is written whole under a unique name and hard-linked onto the lock's name:
 *   link() fails when the name is taken, atomically, on local file systems and NFS alike, and
 *   a lock is never seen half-written.
 * - A lock whose holder is a process of this host that is gone (killed, a power cut) is stale
 *   and taken over. Takers first create `<lock>.takeover-<id of the stale lock>` the same way:
 *   only one can, so only one removes the stale lock and links its own; a later taker sees the
 *   new lock, whose holder is alive. A taker that died mid-way leaves a takeover file of a dead
 *   process, itself stale and taken over by the same rule.
 * - A lock held by a live process, or by another host, is a BusyError (exit 75) naming the
 *   holder and what to do; or, for a caller that asks to wait (a per-input task whose twin
 *   writes the same output: a job submitted twice, a requeue overlapping the old task), a wait
 *   until it is released or stale.
 * - Another host's processes cannot be seen from here, so its holder keeps the lock file's
 *   modification time fresh (a heartbeat every HEARTBEAT_MS); a lock of another host untouched
 *   for STALE_AFTER_MS is a dead run's (a node that went down) and is taken over like a dead
 *   pid's. On a shared file system whose clocks disagree by minutes this needs NTP, as NFS does.
 * - Released on every way out: release() when the run ends (success or failure), and at process
 *   exit (a second Ctrl-C's process.exit, an uncaught error). A SIGINT or SIGTERM that no one
 *   else handles releases the locks, then ends the process by the signal as it would have.
 */
import { randomBytes } from "node:crypto";
import { readFileSync, unlinkSync } from "node:fs";
import { link, mkdir, readFile, stat, unlink, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { BusyError, OutputError, systemReason } from "@winnow/errors";
import { followLinks } from "./output-path.js";
import { isAlive } from "./util.js";

/** Who holds a lock: what its file says. */
export interface LockHolder {
  host: string;
  pid: number;
  /** When the holder took it (ISO 8601). */
  started: string;
  /** Random: tells this lock from a later one of the same process. */
  id: string;
  /** What the holder locked it for, in words: "clean -o out.jsonl". */
  purpose?: string;
}

/** A lock this process holds. */
export interface OutputLock {
  /** The lock file. */
  readonly path: string;
  readonly holder: LockHolder;
  /** Removes the lock file (only if it is still this lock's); a second call does nothing. */
  release(): Promise<void>;
}

/** Hops of takeover files in takeover files before giving up (each needs a crash mid-takeover). */
const MAX_TAKEOVER_DEPTH = 4;

/** How often a holder touches its lock files, so other hosts see it is alive. */
const HEARTBEAT_MS = 30_000;
/** How long another host's lock may go untouched before its holder is taken to be gone: ten heartbeats. */
const STALE_AFTER_MS = 10 * HEARTBEAT_MS;

/** How a caller waits for a lock another run holds, instead of failing with BusyError. */
export interface LockWait {
  /** Between looks at the lock (ms); default 1,000. */
  pollMs?: number;
  /** Called once, when the wait begins, with the holder: for a log line. */
  onWait?: (holder: LockHolder | null) => void;
  /** Ends the wait early: lockOutput then throws the BusyError it would have thrown. */
  signal?: AbortSignal;
}

/** Locks held by this process: released at exit, whatever the way out. */
const held = new Map<string, LockHolder>();

/**
 * The lock file of `target` (a file or folder, there or not): beside it, where it ends once
 * links are followed, so two runs naming it through different links share one lock.
 */
export async function lockPathFor(target: string, key?: string): Promise<string> {
  const final = await followLinks(target).then(
    (f) => f.final,
    () => target,
  );
  const name = basename(final);
  return join(dirname(final), `.${name}${key === undefined ? "" : `.${key}`}.lock`);
}

/**
 * Takes the lock of `target` (see lockPathFor), creating the folder it goes in. Throws a
 * BusyError when another run holds it, an OutputError when it cannot be created.
 */
export async function lockOutput(
  target: string,
  options: { key?: string; purpose?: string; what?: string; wait?: LockWait } = {},
): Promise<OutputLock> {
  const path = await lockPathFor(target, options.key);
  const holder: LockHolder = {
    host: hostname(),
    pid: process.pid,
    started: new Date().toISOString(),
    id: randomBytes(8).toString("hex"),
    ...(options.purpose === undefined ? {} : { purpose: options.purpose }),
  };
  const what = options.what ?? "output";
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (error) {
    // As for the output itself (createParents): mkdir says EEXIST when a file holds a folder's name.
    const code = (error as NodeJS.ErrnoException).code === "EEXIST" ? { code: "ENOTDIR" } : error;
    throw new OutputError(`cannot create ${what}: ${systemReason(code)}`, target, { cause: error });
  }
  for (let waited = false; ; waited = true) {
    try {
      await acquire(path, holder, 0);
      break;
    } catch (error) {
      if (!(error instanceof Held)) throw new OutputError(`cannot lock the ${what}: ${systemReason(error)}`, path, { cause: error });
      const wait = options.wait;
      // An unreadable lock file is no run's heartbeat: waiting on it could last forever.
      if (wait === undefined || error.holder === null || wait.signal?.aborted === true) throw busy(what, target, path, error.holder);
      if (!waited) wait.onWait?.(error.holder);
      await sleep(wait.pollMs ?? 1000, wait.signal);
    }
  }
  held.set(path, holder);
  watchExit();
  startHeartbeat();
  return {
    path,
    holder,
    async release() {
      if (held.get(path) !== holder) return;
      held.delete(path);
      await removeIfOurs(path, holder);
    },
  };
}

/** What lockOutputs is asked to lock: a path, how messages name it, and a key (see lockPathFor). */
export interface LockTarget {
  path: string;
  what: string;
  key?: string;
}

/**
 * Locks every output of a run that is a file or folder (there or not): standard output,
 * descriptors (/dev/stdout, /proc/self/fd/N), devices and FIFOs are written into, never
 * replaced, and are left alone. All or nothing: when one is refused, those taken are released.
 * The returned function releases them all.
 */
export async function lockOutputs(targets: readonly LockTarget[], purpose: string): Promise<() => Promise<void>> {
  const locks: OutputLock[] = [];
  const releaseAll = async (): Promise<void> => {
    await Promise.allSettled(locks.map((lock) => lock.release()));
  };
  try {
    for (const target of targets) {
      if (await writtenInto(target.path)) continue;
      locks.push(await lockOutput(target.path, { key: target.key, what: target.what, purpose }));
    }
  } catch (error) {
    await releaseAll();
    throw error;
  }
  return releaseAll;
}

/** "-", a descriptor link, or a device, FIFO or socket: written into, so nothing to lock. */
async function writtenInto(path: string): Promise<boolean> {
  if (path === "-" || (await followLinks(path).catch(() => null))?.descriptor === true) return true;
  return stat(path).then(
    (s) => !s.isFile() && !s.isDirectory(),
    () => false,
  );
}

/** Thrown inside: the lock is someone else's. */
class Held extends Error {
  constructor(readonly holder: LockHolder | null) {
    super("held");
  }
}

async function acquire(path: string, holder: LockHolder, depth: number): Promise<void> {
  for (;;) {
    if (await linkNew(path, holder)) return;
    const current = await readHolder(path);
    if (current === undefined) continue; // Released between our link and our read: try again.
    if (current === null || !isStale(current) || depth >= MAX_TAKEOVER_DEPTH) throw new Held(current);
    // Stale: only the taker that creates the takeover file for this very lock may remove it.
    const takeover = `${path}.takeover-${current.id}`;
    await acquire(takeover, holder, depth + 1);
    try {
      const still = await readHolder(path);
      if (still !== undefined && still?.id === current.id) await unlink(path).catch(ignoreMissing);
      if (await linkNew(path, holder)) return;
    } finally {
      await removeIfOurs(takeover, holder);
    }
    // Someone else's lock appeared in between (a plain taker after the removal): look again.
  }
}

/** Creates `path` holding `holder`, atomically; false when the name is taken. */
async function linkNew(path: string, holder: LockHolder): Promise<boolean> {
  const unique = `${path}.${holder.host.replace(/[^A-Za-z0-9-]/g, "_")}-${holder.pid}-${randomBytes(4).toString("hex")}`;
  await writeFile(unique, `${JSON.stringify(holder)}\n`, { flush: true, flag: "wx" });
  try {
    await link(unique, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await unlink(unique).catch(ignoreMissing);
  }
}

/**
 * The holder a lock file names, with when the file was last touched (`touched`, ms); undefined
 * when there is no lock, null when it cannot be read as one.
 */
async function readHolder(path: string): Promise<(LockHolder & { touched?: number }) | null | undefined> {
  let text: string;
  let touched: number;
  try {
    text = await readFile(path, "utf8");
    touched = (await stat(path)).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const holder = parseHolder(text);
  return holder === null ? null : { ...holder, touched };
}

function parseHolder(text: string): LockHolder | null {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.host !== "string" || typeof value.pid !== "number" || typeof value.id !== "string") return null;
    return { started: "", ...value } as LockHolder;
  } catch {
    return null;
  }
}

/**
 * A holder of this host that is no longer running: its pid is gone, or is now a process that
 * started after the lock was taken (the pid was reused, as in a container whose processes get
 * the same small pids each time). Another host's processes cannot be seen: its lock is stale
 * when its heartbeat stopped (untouched for STALE_AFTER_MS).
 */
function isStale(holder: LockHolder & { touched?: number }): boolean {
  if (holder.host !== hostname()) return holder.touched !== undefined && Date.now() - holder.touched > STALE_AFTER_MS;
  if (holder.pid === process.pid) return false;
  if (!isAlive(holder.pid)) return true;
  const taken = Date.parse(holder.started);
  const started = processStartMs(holder.pid);
  // A second of slack: the two clocks are read differently.
  return started !== null && Number.isFinite(taken) && started > taken + 1000;
}

/** When process `pid` started (ms since the epoch), from Linux's /proc; null where that cannot be read. */
function processStartMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 22, counted after the command name, which is in parentheses and may hold spaces.
    const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    const boot = Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1]);
    // USER_HZ is 100 on every Linux that Node.js runs on.
    if (!Number.isFinite(ticks) || !Number.isFinite(boot)) return null;
    return boot * 1000 + ticks * 10;
  } catch {
    return null;
  }
}

async function removeIfOurs(path: string, holder: LockHolder): Promise<void> {
  const current = await readHolder(path).catch(() => null);
  if (current?.id === holder.id) await unlink(path).catch(ignoreMissing);
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== "ENOENT") throw error;
}

function busy(what: string, target: string, path: string, holder: LockHolder | null): BusyError {
  if (holder === null) {
    return new BusyError(
      `the ${what} ${target} is locked, and the lock file cannot be read as winnow's; remove it if no other run writes there`,
      path,
    );
  }
  const by = `pid ${holder.pid} on ${holder.host === hostname() ? "this host" : `host ${holder.host}`}${holder.started === "" ? "" : ` since ${holder.started}`}`;
  const todo =
    holder.host === hostname()
      ? "wait for it to end, or stop it"
      : `wait for it to end; if that host is down and the run is gone, remove the lock file (a lock its host stops refreshing is taken over after ${STALE_AFTER_MS / 60_000} minutes)`;
  return new BusyError(`the ${what} ${target} is being written by another winnow run (${by}): ${todo}`, path);
}

/** Removes every lock this process still holds, synchronously: for a process on its way out. */
export function releaseLocksNow(): void {
  for (const [path, holder] of held) {
    try {
      if (parseHolder(readFileSync(path, "utf8"))?.id === holder.id) unlinkSync(path);
    } catch {
      // Gone already, or unreadable: not ours to remove.
    }
  }
  held.clear();
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

let heartbeat: NodeJS.Timeout | undefined;

/** Touches every lock this process holds every HEARTBEAT_MS, while it holds any (unref'd: it never keeps a process alive). */
function startHeartbeat(): void {
  if (heartbeat !== undefined) return;
  heartbeat = setInterval(() => {
    if (held.size === 0) {
      clearInterval(heartbeat);
      heartbeat = undefined;
      return;
    }
    const now = new Date();
    for (const path of held.keys()) utimes(path, now, now).catch(() => {});
  }, HEARTBEAT_MS);
  heartbeat.unref();
}

let watching = false;

/** Installs the exit and signal hooks once, on the first lock taken. */
function watchExit(): void {
  if (watching) return;
  watching = true;
  process.on("exit", releaseLocksNow);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    const onSignal = (): void => {
      // Someone else handles it (clean's graceful stop): their run ends and releases its locks.
      if (process.listenerCount(signal) > 1) return;
      releaseLocksNow();
      process.off(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}
