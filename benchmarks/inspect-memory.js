#!/usr/bin/env node
/**
 * winnow inspect's peak memory with a large --limit: the report held in memory and rendered as
 * one string (before issue 25, still buildReportData + renderReport) against the streamed one
 * (scanReport + writeReport, what winnow inspect runs now). Each mode runs in a child process of
 * its own, so each peak RSS (VmHWM) is that mode's alone. CPU seconds, not wall time: the cores
 * may be shared.
 *
 *   npm run build && node benchmarks/inspect-memory.js [INPUT] [--limit 100000]
 *
 * Default INPUT: ../shared/data/wcxb-dev/html (the 1,358 WCXB dev pages, .html.gz).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const mode = args[0] === "--child" ? args[1] : null;
const limitAt = args.indexOf("--limit");
const limit = limitAt >= 0 ? Number(args[limitAt + 1]) : 100_000;

if (mode !== null) {
  const [input, out] = args.slice(2, 4);
  const { buildReportData, scanReport } = await import("../pipelines/inspect/dist/report-data.js");
  const { renderReport, writeReport } = await import("../pipelines/inspect/dist/report-html.js");
  const { heuristicClassifier } = await import("@winnow/models");
  const classifier = heuristicClassifier();
  const cpu0 = process.cpuUsage();
  let documents;
  if (mode === "in-memory") {
    const data = await buildReportData([input], { classifier, limit });
    writeFileSync(out, renderReport(data));
    documents = data.documents.length;
  } else {
    const role = { what: "report", flag: "-o" };
    documents = (await writeReport(out, role, (emit) => scanReport([input], { classifier, limit }, emit))).documents;
  }
  const cpu = process.cpuUsage(cpu0);
  const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))[1]);
  process.stdout.write(
    `${JSON.stringify({ mode, documents, peakRssMB: Math.round(hwm / 1024), cpuSeconds: (cpu.user + cpu.system) / 1e6 })}\n`,
  );
} else {
  const input =
    args[0] !== undefined && !args[0].startsWith("--")
      ? args[0]
      : fileURLToPath(new URL("../../shared/data/wcxb-dev/html", import.meta.url));
  const self = fileURLToPath(import.meta.url);
  for (const which of ["in-memory", "streamed"]) {
    const out = join(tmpdir(), `winnow-inspect-memory-${which}.html`);
    const r = spawnSync(process.execPath, [self, "--child", which, input, out, "--limit", String(limit)], { encoding: "utf8" });
    process.stdout.write(r.stdout || r.stderr);
    rmSync(out, { force: true });
  }
}
