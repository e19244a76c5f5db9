/**
 * The peak resident memory of this process so far, worker threads included: what a task's
 * summary reports, so that `--mem` can be sized from real runs. It is read when the summary is
 * made, never carried over from the work a task did, so a task with nothing left to do still
 * reports what it took (Node, and whatever it loaded to find out).
 */
import { readFileSync } from "node:fs";

/**
 * This process's own peak RSS in bytes. On Linux, VmHWM: resourceUsage().maxRSS also counts
 * what a parent had mapped at fork time (a trivial child of a 3.7 GB parent reported 1.6 GB).
 * Elsewhere, maxRSS (which Node gives in KiB).
 */
export function peakRssBytes(): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (match) return Number(match[1]) * 1024;
  } catch {
    // No /proc: fall back below.
  }
  return process.resourceUsage().maxRSS * 1024;
}
