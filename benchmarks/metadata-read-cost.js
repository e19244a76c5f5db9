#!/usr/bin/env node
/**
 * What reading a model's metadata_props costs a thread that has loaded nothing for it yet: an
 * earlier build's reader (protobufjs and the ONNX schema, `onnx/graph.js`) against this build's
 * (`onnx/metadata-props.js`), each run a fresh process, runs interleaved. Per run: the CPU
 * (user + system, process.cpuUsage) of importing the reader and of decoding the shipped MLP and
 * BiLSTM once each, the model bytes read beforehand; the decoded maps are compared between the
 * builds.
 *
 *   node benchmarks/metadata-read-cost.js --before OTHER_CHECKOUT [--runs 10]
 */
import { resolve } from "node:path";
import { BENCH_DIR, median, parseFlags, ROOT, runChild, table } from "./lib/common.js";

const flags = parseFlags(process.argv.slice(2));

if (flags.child !== undefined) {
  // One measurement: this process's CPU for importing a reader and decoding both models with it.
  const { readFileSync } = await import("node:fs");
  const { createHash } = await import("node:crypto");
  const models = ["default-mlp.onnx", "default-bilstm.onnx"].map((f) => readFileSync(resolve(ROOT, "packages/models/assets", f)));
  const ms = (since) => {
    const { user, system } = process.cpuUsage(since);
    return (user + system) / 1000;
  };
  const start = process.cpuUsage();
  const { decodeModelMetadata } = await import(resolve(flags.child, "packages/models/dist", flags.module));
  const loadMs = ms(start);
  const decodeStart = process.cpuUsage();
  const maps = models.map((bytes) => decodeModelMetadata(bytes));
  const decodeMs = ms(decodeStart);
  const digest = createHash("sha256")
    .update(JSON.stringify(maps.map((m) => [...m])))
    .digest("hex");
  console.log(JSON.stringify({ loadMs, decodeMs, digest }));
} else {
  if (flags.before === undefined) throw new Error("--before OTHER_CHECKOUT is needed");
  const runs = Number(flags.runs ?? 10);
  const sides = [
    { name: `before (${flags.before}, protobufjs)`, build: resolve(flags.before), module: "onnx/graph.js" },
    { name: "after (this checkout, metadata-props)", build: ROOT, module: "onnx/metadata-props.js" },
  ];
  const results = new Map(sides.map((s) => [s.name, []]));
  const script = resolve(BENCH_DIR, "metadata-read-cost.js");
  for (let i = 1; i <= runs; i++) {
    for (const side of i % 2 ? sides : [...sides].reverse()) {
      const r = await runChild(script, ["--child", side.build, "--module", side.module]);
      results.get(side.name).push(r);
      console.log(`${side.name}\trun ${i}\timport ${r.loadMs.toFixed(1)} ms\tdecode ${r.decodeMs.toFixed(2)} ms\t${r.digest.slice(0, 12)}`);
    }
  }
  const digests = new Set([...results.values()].flat().map((r) => r.digest));
  console.log(digests.size === 1 ? "\nmaps: identical in every run" : "\nmaps: DIFFER between runs or builds");
  const rows = sides.map((s) => {
    const rs = results.get(s.name);
    return [
      s.name,
      median(rs.map((r) => r.loadMs)).toFixed(1),
      median(rs.map((r) => r.decodeMs)).toFixed(2),
      median(rs.map((r) => r.loadMs + r.decodeMs)).toFixed(1),
    ];
  });
  console.log(table(["reader", "import ms (median)", "decode ms (median)", "total ms (median)"], rows));
  if (digests.size !== 1) process.exitCode = 1;
}
