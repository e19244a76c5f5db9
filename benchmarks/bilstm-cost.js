#!/usr/bin/env node
/**
 * What the BiLSTM's scoring costs per page, an earlier build against this one, in one process:
 * the same segmented WCXB pages scored by each build's shipped BiLSTM through its batch API (as
 * `winnow clean --model bilstm` scores them: features, token slots, one ONNX Runtime run per
 * page), rounds interleaved, CPU time per round (process.cpuUsage), medians. Segmentation is
 * done once, outside the timings: it is shared with every model. The scores of the two builds
 * are compared value by value (how many differ, and by how much at most).
 *
 * This build's time is also split, each part timed on its own over the same pages: the token
 * slots (BlockEncoder.encode), the feature rows (the model's feature set), and the rest as the
 * difference: ONNX Runtime's runs, the tensors around them, and the repeated-block links that
 * every model's batch computes (keepingOneCopy). The earlier build's token slots are timed too,
 * in the same rounds, and its slots compared with this build's entry by entry.
 *
 * With --explore, two more measurements on this build, for the ways to run it that were tried:
 * - the shipped model's ONNX session under other session options (memory arena and pattern off,
 *   basic and extended graph optimisation), fed the same tensors as the classifier feeds it;
 * - one bidirectional LSTM of the shipped size (32 units, 32 inputs) alone, on T = 200 steps, at
 *   batch sizes 1 to 16 and with unequal sequence_lens: what batching pages into one run (padded
 *   to the longest) would save per page; whether a sequence's outputs in a padded batch are the
 *   same bits as alone; and the pages' own lengths, each alone against each batch of 16 grouped
 *   by length (at most a fifth of a run's cells padding).
 *
 *   npx turbo run build --filter=@winnow/models... && node benchmarks/bilstm-cost.js --before OTHER_CHECKOUT [--data DIR] [--limit 400] [--rounds 7] [--explore]
 *   (OTHER_CHECKOUT: a built checkout of the earlier commit whose node_modules resolve its own
 *   @winnow packages; see experiments/segment-equivalence.js)
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { DEFAULT_SOURCE, parseFlags, ROOT } from "./lib/common.js";

const flags = parseFlags(process.argv.slice(2), ["explore"]);
if (flags.before === undefined) throw new Error("--before OTHER_CHECKOUT is needed");
const data = flags.data ?? DEFAULT_SOURCE;
const limit = Number(flags.limit ?? 400);
const rounds = Number(flags.rounds ?? 7);
const batchSize = 16;

const load = (root, path) => import(pathToFileURL(join(root, path)).href);
const { segmentHtml } = await load(ROOT, "packages/segment/dist/index.js");
const htmlDir = join(data, "html");
const docs = readdirSync(htmlDir)
  .sort()
  .slice(0, limit)
  .map((f) => segmentHtml(gunzipSync(readFileSync(join(htmlDir, f))).toString("utf8")))
  .filter((d) => d.blocks.length > 0);
const blocks = docs.reduce((n, d) => n + d.blocks.length, 0);

/** One build's BiLSTM: scores every page batch by batch, as a clean run's worker does. */
async function build(root) {
  const models = await load(root, "packages/models/dist/index.js");
  const classifier = await models.loadClassifier("bilstm");
  return async () => {
    const scores = [];
    for (let i = 0; i < docs.length; i += batchSize) {
      const batch = models.scoreBatch(classifier);
      for (const doc of docs.slice(i, i + batchSize)) await batch.add(doc);
      scores.push(...(await batch.score()));
    }
    return scores;
  };
}

const builds = { before: await build(flags.before), after: await build(ROOT) };
const names = Object.keys(builds);

// The parts of this build's time, each on its own.
const models = await load(ROOT, "packages/models/dist/index.js");
const { featureSetByName } = await load(ROOT, "packages/features/dist/index.js");
const modelPath = models.builtinModelPath("bilstm");
const bytes = readFileSync(modelPath);
const { vocabulary } = models.biLstmMetadata(models.decodeModelMetadata(bytes), modelPath);
const info = await models.readModelInfo(bytes);
const encoder = new models.BlockEncoder(vocabulary);
const beforeEncoder = new (await load(flags.before, "packages/models/dist/index.js")).BlockEncoder(vocabulary);
const featureSet = featureSetByName(info.featureSet);
const rows = new Float32Array(docs.reduce((n, d) => Math.max(n, d.blocks.length), 0) * featureSet.size);
let slots = 0;
const parts = {
  "token slots, before": () => {
    for (const doc of docs) beforeEncoder.encode(doc, () => {});
  },
  "token slots": () => {
    for (const doc of docs) encoder.encode(doc, () => slots++);
  },
  "feature rows": () => {
    for (const doc of docs) featureSet.extract(doc, rows, 0);
  },
};

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const scoresOf = {};
for (const name of names) scoresOf[name] = await builds[name](); // warm-up, and the scores compared
let differ = 0,
  maxDiff = 0;
scoresOf.before.forEach((s, p) => {
  for (let b = 0; b < s.length; b++) {
    const d = Math.abs(s[b] - scoresOf.after[p][b]);
    if (d !== 0) differ++;
    maxDiff = Math.max(maxDiff, d);
  }
});

// The two builds' token slots, entry by entry (block, slot, value).
const entriesOf = (e) => {
  const out = [];
  for (const doc of docs) e.encode(doc, (b, slot, v) => out.push(b, slot, v));
  return out;
};
const entries = { before: entriesOf(beforeEncoder), after: entriesOf(encoder) };
let entriesDiffer = Math.abs(entries.before.length - entries.after.length) / 3;
for (let i = 0; i < Math.min(entries.before.length, entries.after.length); i++)
  if (!Object.is(entries.before[i], entries.after[i])) entriesDiffer++;

const times = Object.fromEntries([...names, ...Object.keys(parts)].map((n) => [n, []]));
for (let r = 0; r < rounds; r++) {
  // Each round in another order, so that no build always follows the other.
  for (let k = 0; k < names.length; k++) {
    const name = names[(r + k) % names.length];
    const t = cpu();
    await builds[name]();
    times[name].push(cpu() - t);
  }
  // The parts in turn, the two encoders' order alternating with the rounds.
  const partNames = Object.keys(parts);
  if (r % 2 === 1) [partNames[0], partNames[1]] = [partNames[1], partNames[0]];
  for (const name of partNames) {
    const part = parts[name];
    const t = cpu();
    part();
    times[name].push(cpu() - t);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (s) => ((s / docs.length) * 1000).toFixed(3);
console.log(`BiLSTM scoring, ${docs.length} pages (${blocks} blocks) of ${data}, ${rounds} rounds interleaved, CPU medians`);
console.log("");
console.log("| build | CPU s per round | ms per page | pages per CPU-s | rounds (s) |");
console.log("| --- | ---: | ---: | ---: | --- |");
for (const name of names) {
  const m = median(times[name]);
  console.log(
    `| ${name} | ${m.toFixed(3)} | ${ms(m)} | ${(docs.length / m).toFixed(0)} | ${times[name].map((t) => t.toFixed(2)).join(" ")} |`,
  );
}
const after = median(times.after);
console.log("");
console.log(`after / before: ${(median(times.before) / after).toFixed(3)}× the pages per CPU-second`);
console.log(`scores that differ: ${differ} of ${blocks} (largest difference ${maxDiff})`);
console.log("");
console.log("This build's time by part (each timed alone; the rest is ONNX Runtime's runs, their tensors and the repeat links):");
const ownParts = Object.keys(parts).filter((n) => n !== "token slots, before");
for (const name of ownParts) console.log(`- ${name}: ${ms(median(times[name]))} ms per page`);
const rest = after - ownParts.reduce((s, n) => s + median(times[n]), 0);
console.log(`- the rest: ${ms(rest)} ms per page`);
console.log(`(${(slots / rounds / blocks).toFixed(1)} token slots per block)`);
const pairedSlots = times["token slots, before"].map((t, r) => t / times["token slots"][r]);
console.log("");
console.log(
  `Token slots, before: ${ms(median(times["token slots, before"]))} ms per page; before / after ${(median(times["token slots, before"]) / median(times["token slots"])).toFixed(3)} (medians), ${median(pairedSlots).toFixed(3)} (paired); entries that differ: ${entriesDiffer} of ${entries.after.length / 3}`,
);

if (flags.explore) {
  const ort = await import("onnxruntime-node");
  const { TOKEN_INPUTS } = await load(ROOT, "packages/models/dist/bilstm/export.js");
  // The classifier's feeds, built once: int64 slots and blocks, float values, the feature rows.
  const feeds = docs.map((doc) => {
    const T = doc.blocks.length;
    const slot = [],
      block = [],
      value = [];
    encoder.encode(doc, (b, s, v) => {
      slot.push(BigInt(s));
      block.push(BigInt(b));
      value.push(v);
    });
    const features = new Float32Array(T * featureSet.size);
    featureSet.extract(doc, features, 0);
    return {
      [TOKEN_INPUTS.slot]: new ort.Tensor("int64", BigInt64Array.from(slot), [slot.length]),
      [TOKEN_INPUTS.value]: new ort.Tensor("float32", Float32Array.from(value), [value.length, 1]),
      [TOKEN_INPUTS.block]: new ort.Tensor("int64", BigInt64Array.from(block), [block.length, 1]),
      [TOKEN_INPUTS.blocks]: new ort.Tensor("int64", BigInt64Array.of(BigInt(T)), [1]),
      features: new ort.Tensor("float32", features, [T, featureSet.size]),
    };
  });
  const base = { intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: "all", executionMode: "sequential" };
  const variants = {
    "as winnow runs it": base,
    "memory arena off": { ...base, enableCpuMemArena: false },
    "memory pattern off": { ...base, enableMemPattern: false },
    "basic graph optimisation": { ...base, graphOptimizationLevel: "basic" },
    "extended graph optimisation": { ...base, graphOptimizationLevel: "extended" },
  };
  const sessions = {};
  for (const [name, options] of Object.entries(variants)) sessions[name] = await ort.InferenceSession.create(bytes, options);
  const runTimes = Object.fromEntries(Object.keys(variants).map((n) => [n, []]));
  for (let r = 0; r < rounds; r++) {
    for (const name of Object.keys(variants)) {
      const t = cpu();
      for (const f of feeds) await sessions[name].run(f);
      runTimes[name].push(cpu() - t);
    }
  }
  console.log("");
  console.log("ONNX Runtime's runs alone, by session options (same tensors, rounds interleaved, CPU medians):");
  for (const name of Object.keys(variants)) console.log(`- ${name}: ${ms(median(runTimes[name]))} ms per page`);

  const g = await load(ROOT, "packages/models/dist/onnx/graph.js");
  const H = 32,
    D = 32,
    T = 200;
  let seed = 1;
  const random = (n) => Float32Array.from({ length: n }, () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 0.2);
  const lstm = g.encodeModel(
    g.makeGraph({
      name: "lstm",
      nodes: [
        g.makeNode("LSTM", ["x", "w", "r", "b", "lens"], ["y"], [g.attrInt("hidden_size", H), g.attrString("direction", "bidirectional")], {
          name: "lstm",
        }),
      ],
      inputs: [g.tensorValueInfo("x", g.TensorDataType.FLOAT, ["T", "B", D]), g.tensorValueInfo("lens", g.TensorDataType.INT32, ["B"])],
      outputs: [g.tensorValueInfo("y", g.TensorDataType.FLOAT, ["T", 2, "B", H])],
      initializers: [
        g.floatTensor("w", [2, 4 * H, D], random(8 * H * D)),
        g.floatTensor("r", [2, 4 * H, H], random(8 * H * H)),
        g.floatTensor("b", [2, 8 * H], random(16 * H)),
      ],
    }),
    {},
  );
  const session = await ort.InferenceSession.create(lstm, base);
  console.log("");
  console.log(`One bidirectional LSTM (${H} units), T = ${T}, by batch (sequence lengths): µs per run, and per sequence`);
  for (const lens of [[200], [200, 200], [200, 100], [200, 200, 200, 200], [200, 20, 20, 20], Array(16).fill(200)]) {
    const B = lens.length;
    const feed = {
      x: new ort.Tensor("float32", random(T * B * D), [T, B, D]),
      lens: new ort.Tensor("int32", Int32Array.from(lens), [B]),
    };
    for (let i = 0; i < 20; i++) await session.run(feed);
    const reps = Math.ceil(800 / B);
    const t = cpu();
    for (let i = 0; i < reps; i++) await session.run(feed);
    const us = ((cpu() - t) / reps) * 1e6;
    console.log(`- [${lens.join(", ")}]: ${us.toFixed(0)} µs, ${(us / B).toFixed(0)} µs per sequence`);
  }

  // A page's sequence at [T, B, D] beside others: the same outputs bit for bit as alone, or not?
  // Batching pages keeps the scores only if it is.
  const padded = (sequences) => {
    const longest = Math.max(...sequences.map((x) => x.length / D));
    const B = sequences.length;
    const x = new Float32Array(longest * B * D);
    sequences.forEach((seq, k) => {
      for (let t = 0; t < seq.length / D; t++) x.set(seq.subarray(t * D, (t + 1) * D), (t * B + k) * D);
    });
    return {
      x: new ort.Tensor("float32", x, [longest, B, D]),
      lens: new ort.Tensor(
        "int32",
        Int32Array.from(sequences, (q) => q.length / D),
        [B],
      ),
    };
  };
  const sequences = [103, 250, 17, 188].map((n) => random(n * D));
  const alone = [];
  for (const seq of sequences) alone.push((await session.run(padded([seq]))).y.data);
  const together = (await session.run(padded(sequences))).y.data;
  let outputs = 0,
    outputsDiffer = 0;
  sequences.forEach((seq, k) => {
    for (let t = 0; t < seq.length / D; t++)
      for (let i = 0; i < 2 * H; i++) {
        const dir = i >= H ? 1 : 0;
        outputs++;
        if (!Object.is(alone[k][(t * 2 + dir) * H + (i % H)], together[((t * 2 + dir) * sequences.length + k) * H + (i % H)]))
          outputsDiffer++;
      }
  });
  console.log("");
  console.log(
    `Four sequences (103, 250, 17, 188 steps) in one padded run against each alone: ${outputsDiffer} of ${outputs} outputs differ`,
  );

  // The pages' own lengths: each page alone, against each clean batch's pages (batchSize) sorted by
  // length and grouped, a group closed where padding would pass a fifth of its cells.
  const lengths = docs.map((d) => d.blocks.length);
  const groups = [];
  for (let i = 0; i < lengths.length; i += batchSize) {
    let group = [];
    for (const n of lengths.slice(i, i + batchSize).sort((a, b) => b - a)) {
      const used = group.reduce((a, b) => a + b, n);
      if (group.length > 0 && used < 0.8 * group[0] * (group.length + 1)) {
        groups.push(group);
        group = [n];
      } else group.push(n);
    }
    groups.push(group);
  }
  const byLength = (ns) => padded(ns.map((n) => random(n * D)));
  const layouts = { "each page alone": lengths.map((n) => byLength([n])), "grouped by length": groups.map(byLength) };
  const layoutTimes = { "each page alone": [], "grouped by length": [] };
  for (let r = 0; r < rounds; r++) {
    const order = Object.keys(layouts);
    if (r % 2 === 1) order.reverse();
    for (const name of order) {
      const t = cpu();
      for (const f of layouts[name]) await session.run(f);
      layoutTimes[name].push(cpu() - t);
    }
  }
  const grouped = layoutTimes["grouped by length"].map((t, r) => layoutTimes["each page alone"][r] / t);
  console.log(`The same LSTM over these ${docs.length} pages' lengths, ${groups.length} runs grouped (rounds interleaved, CPU medians):`);
  for (const name of Object.keys(layouts)) console.log(`- ${name}: ${((median(layoutTimes[name]) / docs.length) * 1e6) | 0} µs per page`);
  console.log(
    `- alone / grouped: ${(median(layoutTimes["each page alone"]) / median(layoutTimes["grouped by length"])).toFixed(3)} (medians), ${median(grouped).toFixed(3)} (paired)`,
  );
}
