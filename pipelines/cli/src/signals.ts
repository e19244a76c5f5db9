import { EXIT } from "@winnow/errors";
import { removeTempFilesNow } from "@winnow/writers";
import type { Logger } from "pino";

/**
 * The first SIGINT/SIGTERM asks the run to stop (the returned signal aborts) and logs `stopping`,
 * what the run does now; a second quits at once, removing unfinished temporary files first.
 */
export function interruptOnSignals(logger: Logger, stopping: string): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals): void => {
    if (controller.signal.aborted) {
      removeTempFilesNow();
      process.exit(EXIT.interrupted);
    }
    logger.warn(`${name}: ${stopping}`);
    controller.abort();
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    signal: controller.signal,
    dispose() {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}
