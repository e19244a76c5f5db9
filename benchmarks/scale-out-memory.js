#!/usr/bin/env node
/**
 * Per-task resources of a sharded run (docs/scale-out.md): peak RSS and CPU time of one
 * `winnow clean --per-input` task over a small and a large WARC, read from disk and streamed
 * over http from a local server, at two batch sizes. The claim it checks: a task's memory is
 * bounded by what is in flight (workers × batch size), not by the size of its input.
 *
 *   node benchmarks/scale-out-memory.js [--repeat N] [--workers W]
 *
 * Inputs are made from fixtures/wcxb-sample with make-warc.js: small once (14 pages), medium
 * --repeat/4 times, large --repeat times (default 800: 11,200 pages, about 94 MB of gzip WARC).
 * Each is read from disk at batch sizes 16 and 64; the large one also over http. Figures come from the summary line
 * each run prints (peak RSS is the process's VmHWM, worker threads included; CPU is user +
 * system of the whole process, so contended cores do not inflate it as wall time would).
 */
import { execFileSync, spawn } from "node:child_process";
import { createReadStream, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "pipelines/cli/bin/winnow.js");
const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const repeat = flag("--repeat", 800);
const workers = flag("--workers", 2);

const dir = mkdtempSync(join(tmpdir(), "winnow-scale-mem-"));
const make = (name, times) => {
  const out = join(dir, name);
  execFileSync(process.execPath, [
    join(ROOT, "benchmarks/make-warc.js"),
    join(ROOT, "fixtures/wcxb-sample"),
    out,
    "--repeat",
    String(times),
  ]);
  return out;
};
const sizes = [
  ["small", make("small.warc.gz", 1)],
  ["medium", make("medium.warc.gz", Math.max(1, Math.round(repeat / 4)))],
  ["large", make("large.warc.gz", repeat)],
];

const server = createServer((req, res) => {
  const file = join(dir, basename(new URL(req.url, "http://x").pathname));
  const size = statSync(file).size;
  const from = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? "")?.[1] ?? 0);
  if (from >= size && from > 0) return void res.writeHead(416).end();
  const headers = { "content-length": size - from, "accept-ranges": "bytes" };
  if (from > 0) res.writeHead(206, { ...headers, "content-range": `bytes ${from}-${size - 1}/${size}` });
  else res.writeHead(200, headers);
  createReadStream(file, { start: from }).pipe(res);
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const base = `http://127.0.0.1:${server.address().port}`;

function run(input, batchSize) {
  const out = join(dir, `out-${Math.random().toString(36).slice(2)}`);
  mkdirSync(out);
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [BIN, "clean", "--per-input", input, "-o", out, "--workers", String(workers), "--batch-size", String(batchSize)],
      {
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => {
      const line = stderr.split("\n").find((l) => l.startsWith("winnow: ") && l.includes("peak RSS"));
      if (code !== 0 || line === undefined) return reject(new Error(`run failed (${code}): ${stderr.slice(-2000)}`));
      const rss = Number(/peak RSS (\d+) MB/.exec(line)[1]);
      const cpu = Number(/([\d.]+) CPU s/.exec(line)[1]);
      const docs = Number(/wrote (\d+) documents/.exec(line)[1]);
      resolve({ rss, cpu, docs });
    });
  });
}

const rows = [];
for (const [label, file] of sizes) {
  for (const where of label === "large" ? ["disk", "http"] : ["disk"]) {
    for (const batchSize of [16, 64]) {
      const input = where === "disk" ? file : `${base}/${basename(file)}`;
      const r = await run(input, batchSize);
      rows.push({ label, mb: statSync(file).size / 1e6, where, batchSize, ...r });
      console.error(`${label} ${where} batch ${batchSize}: ${JSON.stringify(r)}`);
    }
  }
}
server.close();
rmSync(dir, { recursive: true, force: true });

console.log(`workers ${workers}; large = wcxb-sample x ${repeat}`);
console.log("| input | stored MB | read from | batch size | documents | CPU s | peak RSS MB |");
console.log("| --- | ---: | --- | ---: | ---: | ---: | ---: |");
for (const r of rows) {
  console.log(`| ${r.label} | ${r.mb.toFixed(1)} | ${r.where} | ${r.batchSize} | ${r.docs} | ${r.cpu.toFixed(1)} | ${r.rss} |`);
}
