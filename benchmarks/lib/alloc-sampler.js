/**
 * Preloaded by benchmarks/alloc-profile.js (`node --import`): V8's sampling heap profiler over
 * the whole process's life, counting objects the collector has already reclaimed as well as the
 * live ones (`--heap-prof` keeps only what is still alive when it stops, which on a streaming run
 * is almost nothing of what the hot path allocated). Writes the profile to
 * $WINNOW_ALLOC_PROFILE when the process exits.
 *
 * The inspector session belongs to this thread, so `post` answers synchronously, which is what
 * lets the profile be taken in an `exit` handler after the CLI has finished.
 */
import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";

// biome-ignore lint/suspicious/noUndeclaredEnvVars: alloc-profile.js sets it for its own child; no build reads it
const target = process.env.WINNOW_ALLOC_PROFILE;
// biome-ignore lint/suspicious/noUndeclaredEnvVars: as above
const interval = Number(process.env.WINNOW_ALLOC_INTERVAL ?? 16384);
if (target !== undefined) {
  const session = new Session();
  session.connect();
  session.post("HeapProfiler.startSampling", {
    samplingInterval: interval,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  process.on("exit", () => {
    session.post("HeapProfiler.stopSampling", (error, result) => {
      if (error) throw error;
      writeFileSync(target, JSON.stringify(result.profile));
    });
  });
}
