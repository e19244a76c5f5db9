/**
 * The progress line on stderr. It redraws on cli-progress's timer from the run's live counters,
 * so the run itself only hands over a reference: no formatting per batch.
 */
import cliProgress from "cli-progress";
import type { CleanProgress } from "@winnow/clean";

export interface ProgressLine {
  update(progress: Readonly<CleanProgress>): void;
  stop(): void;
}

export function startProgressLine(stream: NodeJS.WriteStream = process.stderr): ProgressLine {
  const started = performance.now();
  let latest: Readonly<CleanProgress> = { recordsRead: 0, bytesRead: 0, documentsWritten: 0, skipped: 0 };
  const bar = new cliProgress.SingleBar({
    stream,
    fps: 4,
    hideCursor: true,
    clearOnComplete: true,
    format: () => {
      const seconds = (performance.now() - started) / 1000;
      const rate = seconds > 0 ? latest.documentsWritten / seconds : 0;
      return (
        `${count(latest.recordsRead)} records | ${(latest.bytesRead / 1e6).toFixed(1)} MB read | ` +
        `${count(latest.documentsWritten)} kept | ${count(latest.skipped)} skipped | ${rate.toFixed(0)} docs/s`
      );
    },
  });
  bar.start(0, 0);
  return {
    update: (progress) => (latest = progress),
    stop: () => bar.stop(),
  };
}

const count = (n: number): string => n.toLocaleString("en-US");
