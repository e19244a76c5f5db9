/**
 * Preloaded into every thread of a `winnow clean` run by memory-threads.js (`node --import`, which
 * the pool's threads inherit with the parent's execArgv): every SAMPLE_MS, this thread's own V8
 * heap (used, committed, per space), external and arrayBuffers memory, the process's RSS, and
 * the garbage collector's pauses on this thread so far (count and ms, young and full), as one
 * JSON line appended to the file its URL names (`--import file:///…/thread-sampler.js?log=FILE`).
 * Appended synchronously, so a line is whole even with several threads writing, and the timer is
 * unref'd so it never keeps a thread alive.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { constants, PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8";
import { isMainThread, resourceLimits, threadId } from "node:worker_threads";

/** Where the lines go: the `log` parameter of this module's URL, which every thread imports alike. */
const log = new URL(import.meta.url).searchParams.get("log");
const SAMPLE_MS = 50;

/** The process's peak RSS so far (VmHWM), in bytes; what GNU time reports as maximum resident. */
function peakRss() {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"));
  return match ? Number(match[1]) * 1024 : 0;
}

/** Pauses of this thread's collector: scavenges (young) and mark-compacts (full), count and ms. */
const gc = { young: 0, youngMs: 0, full: 0, fullMs: 0 };
const FULL = constants.NODE_PERFORMANCE_GC_MAJOR;

function sample(event) {
  const usage = process.memoryUsage();
  const heap = getHeapStatistics();
  const spaces = {};
  for (const space of getHeapSpaceStatistics()) spaces[space.space_name] = space.space_size;
  const line = {
    t: Math.round(performance.timeOrigin + performance.now()),
    thread: isMainThread ? "main" : `worker ${threadId}`,
    event,
    rss: usage.rss,
    peakRss: peakRss(),
    heapUsed: usage.heapUsed,
    heapTotal: usage.heapTotal,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
    malloced: heap.malloced_memory,
    heapLimit: heap.heap_size_limit,
    newSpace: spaces.new_space ?? 0,
    oldSpace: spaces.old_space ?? 0,
    codeSpace: spaces.code_space ?? 0,
    largeObjectSpace: spaces.large_object_space ?? 0,
    gc: { ...gc },
  };
  if (event === "start") line.resourceLimits = isMainThread ? null : resourceLimits;
  appendFileSync(log, `${JSON.stringify(line)}\n`);
}

if (log) {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.detail?.kind === FULL) {
        gc.full++;
        gc.fullMs += entry.duration;
      } else {
        gc.young++;
        gc.youngMs += entry.duration;
      }
    }
  }).observe({ entryTypes: ["gc"] });
  sample("start");
  setInterval(() => sample("tick"), SAMPLE_MS).unref();
  process.on("exit", () => sample("exit"));
}
