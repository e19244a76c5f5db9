#!/usr/bin/env node
/**
 * Micro-benchmarks (tinybench), one stage at a time, on real pages from the generated WARC:
 * archive read + gunzip, decoding, segmentation, features, the MLP (ONNX Runtime at several
 * batch sizes, and the TypeScript forward pass), and the writers.
 *
 *   node benchmarks/micro.js [--quick] [--input WARC] [--pages N] [--model PATH] [--time MS] [--json FILE]
 *
 * Each task's unit of work is a whole set (all records, all pages, all blocks), so one figure
 * per stage comes out directly (MB/s, docs/s, µs/block) instead of a per-call latency.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { Bench } from "tinybench";
import {
  QUICK_PAGES,
  SUBSET_PAGES,
  benchModel,
  ensureWarc,
  fmt,
  importBuilt,
  machineInfo,
  parseFlags,
  segmentsHtmlparser2,
  table,
} from "./lib/common.js";
import { measureWriters } from "./writers.js";

export async function micro(options = {}, log = console.error) {
  const quick = options.quick === true;
  const archive = await importBuilt("@winnow/archive");
  const { segmentHtml, SkippingTokenizer } = await importBuilt("@winnow/segment");
  const htmlparser2 = (await segmentsHtmlparser2()).module;
  const { TEXREX37, TEXREX_EXTENDED } = await importBuilt("@winnow/features");
  const models = await importBuilt("@winnow/models");
  const model = options.model ? { path: options.model, kind: "given" } : await benchModel({ data: options.data, log });
  const input =
    options.input ?? (quick ? ensureWarc({ limit: QUICK_PAGES, data: options.data, log }) : ensureWarc({ data: options.data, log }));
  const pageCount = Number(options.pages ?? (quick ? QUICK_PAGES : SUBSET_PAGES));
  const time = Number(options.time ?? (quick ? 300 : 2000));

  // Inputs prepared once, outside the timed functions.
  log(`micro: preparing ${pageCount} pages from ${basename(input)} ...`);
  const bodies = [];
  let warcRecords = 0;
  let warcPayload = 0;
  for await (const r of archive.readRecords(input)) {
    warcRecords++;
    warcPayload += r.body.byteLength;
    if (bodies.length < pageCount) bodies.push({ body: r.body.slice(), charset: r.charset });
  }
  const warcBytes = readFileSync(input).byteLength;
  const htmls = bodies.map((b) => archive.decodeHtml(b.body, b.charset).html);
  const pieces = bodies.map((b) => archive.decodeHtmlPieces(b.body, b.charset).pieces);
  const htmlBytes = bodies.reduce((a, b) => a + b.body.byteLength, 0);
  const docs = htmls.map((h) => segmentHtml(h)).filter((d) => d.blocks.length > 0);
  const blocks = docs.reduce((a, d) => a + d.blocks.length, 0);

  // The MLP as the pipeline runs it: the model's own feature set, rows stacked per call.
  const scorer = await models.OnnxBlockScorer.load(model.path);
  const featureSet = scorer.info.featureSet === TEXREX37.name ? TEXREX37 : TEXREX_EXTENDED;
  const width = featureSet.size;
  const groupsOf = (size) => {
    const groups = [];
    for (let i = 0; i < docs.length; i += size) {
      const part = docs.slice(i, i + size);
      const n = part.reduce((a, d) => a + d.blocks.length, 0);
      const rows = new Float32Array(n * width);
      let at = 0;
      for (const d of part) {
        featureSet.extract(d, rows, at);
        at += d.blocks.length * width;
      }
      groups.push({ rows, n });
    }
    return groups;
  };
  const batches = { 1: groupsOf(1), 16: groupsOf(16), 64: groupsOf(64) };
  // TypeScript forward pass: same shape as `winnow train` makes (hidden 18 by default), trained
  // briefly here because a model file holds an ONNX graph, not MlpWeights.
  const all = batches[64];
  const sample = all[0];
  const labels = new Uint8Array(sample.n);
  for (let i = 0; i < sample.n; i++) labels[i] = i % 3 === 0 ? 1 : 0;
  const weights = models.trainMlp(sample.rows, labels, sample.n, width, { epochs: 1 });
  const sameNet = await models.OnnxBlockScorer.load(
    models.mlpToOnnx(weights, {
      kind: "mlp",
      featureSet: featureSet.name,
      featureSetVersion: featureSet.version,
      inputSize: width,
      threshold: 0.5,
      trainingFingerprint: "bench",
      notes: "benchmark only",
    }),
  );
  const tsOut = new Float32Array(Math.max(...all.map((g) => g.n)));

  const bench = new Bench({ time, iterations: quick ? 2 : 5, warmupIterations: 1, warmupTime: 0 });
  const units = {};
  const add = (name, unit, fn) => {
    units[name] = unit;
    bench.add(name, fn);
  };
  add(
    "archive: readRecords + gunzip, whole WARC",
    { kind: "MB/s", amount: warcPayload / 1e6, extra: `${warcRecords} records; ${fmt.n(warcBytes / 1e6, 1)} MB gzip in` },
    async () => {
      for await (const r of archive.readRecords(input)) void r;
    },
  );
  add(
    "archive: zlib.gunzipSync whole file (reference)",
    { kind: "MB/s", amount: warcPayload / 1e6, extra: "output MB/s incl. WARC/HTTP headers ≈ payload" },
    () => {
      gunzipSync(readFileSync(input));
    },
  );
  // Whole-page strings against 32 KB pieces: V8 makes strings over 128 KB in its large-object
  // space, which costs more than the decoding (see PIECE_BYTES in packages/archive/src/charset.ts).
  const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
  add(
    "decode: TextDecoder, one string per page (reference)",
    { kind: "MB/s", amount: htmlBytes / 1e6, extra: `${bodies.length} pages` },
    () => {
      for (const b of bodies) utf8.decode(b.body);
    },
  );
  add(
    "decode: decodeHtmlPieces (32 KB pieces)",
    { kind: "MB/s", amount: htmlBytes / 1e6, extra: `${bodies.length} pages, charset checks included` },
    () => {
      for (const b of bodies) archive.decodeHtmlPieces(b.body, b.charset);
    },
  );
  add(
    "segment: segmentHtml, one string per page",
    { kind: "docs/s", amount: htmls.length, extra: `${fmt.n(htmlBytes / 1e6, 1)} MB HTML` },
    () => {
      for (const h of htmls) segmentHtml(h);
    },
  );
  add("segment: segmentHtml, decodeHtmlPieces' pieces", { kind: "docs/s", amount: pieces.length, extra: "same pages" }, () => {
    for (const p of pieces) segmentHtml(p);
  });
  // The tokenizer alone, under empty callbacks: htmlparser2's own against the one that skips with indexOf.
  const noop = () => {};
  const emptyHandler = { onopentagname: noop, onattribute: noop, onclosetag: noop, ontext: noop, onprocessinginstruction: noop };
  for (const [label, Tokenizer] of [
    ["htmlparser2's tokenizer", htmlparser2.Tokenizer],
    ["SkippingTokenizer (skips runs with indexOf)", SkippingTokenizer],
  ]) {
    add(
      `segment: parse only, ${label}`,
      { kind: "docs/s", amount: htmls.length, extra: "entities decoded, as the segmenter parses" },
      () => {
        for (const h of htmls)
          new htmlparser2.Parser(emptyHandler, { decodeEntities: true, lowerCaseAttributeNames: false, Tokenizer }).end(h);
      },
    );
  }
  for (const set of [TEXREX37, TEXREX_EXTENDED]) {
    add(
      `features: ${set.name} (${set.size} values)`,
      { kind: "µs/block", amount: blocks, extra: `${blocks} blocks, ${docs.length} docs` },
      () => {
        for (const d of docs) set.extract(d);
      },
    );
  }
  for (const size of [1, 16, 64]) {
    const groups = batches[size];
    add(
      `MLP: ONNX Runtime, ${size} doc${size === 1 ? "" : "s"} per run`,
      { kind: "µs/block", amount: blocks, extra: `${groups.length} session.run calls, ${fmt.n(blocks / groups.length, 0)} blocks each` },
      async () => {
        for (const g of groups) await scorer.score(g.rows, g.n);
      },
    );
  }
  add(
    "MLP: ONNX Runtime, same net as TS row, 64 docs per run",
    { kind: "µs/block", amount: blocks, extra: `H=${weights.hiddenSize}` },
    async () => {
      for (const g of all) await sameNet.score(g.rows, g.n);
    },
  );
  add(
    "MLP: TypeScript forward pass (predictMlp)",
    { kind: "µs/block", amount: blocks, extra: `H=${weights.hiddenSize}, ${weights.activation}` },
    () => {
      for (const g of all) models.predictMlp(weights, g.rows, g.n, tsOut);
    },
  );

  // The shipped BiLSTM as the pipeline runs it: one session.run per page, its token counts and
  // feature rows computed inside the timed call (the MLP rows above get their features ready-made).
  const bilstmPath = models.builtinModelPath("bilstm");
  const bilstm = existsSync(bilstmPath) ? await models.loadModelClassifier(bilstmPath) : undefined;
  if (bilstm) {
    const notes = JSON.parse(bilstm.info.notes);
    const { vocabulary } = models.biLstmMetadata(models.decodeModelMetadata(readFileSync(bilstmPath)), bilstmPath);
    const encoder = new models.BlockEncoder(vocabulary);
    add("BiLSTM: token counts alone (BlockEncoder)", { kind: "µs/block", amount: blocks, extra: `${encoder.slots} slots` }, () => {
      for (const d of docs) encoder.encode(d, noop);
    });
    add(
      "BiLSTM: tokens + features + ONNX Runtime, 1 doc per run",
      {
        kind: "µs/block",
        amount: blocks,
        extra: `${notes.members > 1 ? `${notes.members} nets of ` : ""}${notes.layers} x ${notes.hidden} units, input ${notes.input}`,
      },
      async () => {
        await bilstm.score(docs);
      },
    );
  }

  log(`micro: running ${bench.tasks.length} tasks (${time} ms each) ...`);
  await bench.run();
  await Promise.all([scorer.close(), sameNet.close(), bilstm?.close()]);

  const rows = bench.tasks.map((task) => {
    const r = task.result;
    const u = units[task.name];
    if (r.state !== "completed") return { name: task.name, error: r.error?.message ?? r.state };
    const ms = r.latency.mean;
    const figure = u.kind === "µs/block" ? (ms * 1000) / u.amount : u.amount / (ms / 1000);
    return { name: task.name, kind: u.kind, figure, msPerOp: ms, rme: r.latency.rme, samples: r.latency.samplesCount, extra: u.extra };
  });

  log("micro: writers ...");
  const writers = await measureWriters(quick ? 4000 : 20000);

  const headers = ["stage", "figure", "unit", "ms per set", "± %", "runs", "set"];
  const body = rows.map((r) =>
    r.error
      ? [r.name, "error", "", "", "", "", r.error]
      : [r.name, fmt.n(r.figure, r.kind === "µs/block" ? 2 : 1), r.kind, fmt.n(r.msPerOp, 1), fmt.n(r.rme, 1), r.samples, r.extra],
  );
  const writerTable = table(
    ["writer format", "docs/s", "MB/s", "docs", "file MB"],
    writers.map((w) => [w.format, fmt.n(w.docsPerSecond), fmt.n(w.mbPerSecond), w.docs, fmt.n(w.fileMb, 1)]),
  );
  const markdown =
    `Pages: the first ${bodies.length} HTML records of ${basename(input)} (${blocks} blocks in ${docs.length} non-empty documents; ` +
    `${fmt.n(blocks / docs.length, 0)} blocks per document); the archive rows read the whole file. MLP model \`${basename(model.path)}\` (${model.kind}), ` +
    `feature set ${featureSet.name}. ONNX Runtime runs single-threaded (intraOpNumThreads 1), as in the pipeline.\n\n` +
    `${table(headers, body)}\n\nWriters (synthetic ~5 KB documents; gzip MB/s counts uncompressed JSONL):\n\n${writerTable}`;
  return { machine: machineInfo(), input, model, rows, writers, markdown };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const flags = parseFlags(process.argv.slice(2), ["quick"]);
  try {
    const result = await micro({
      quick: flags.quick === true,
      input: flags.input,
      pages: flags.pages,
      model: flags.model,
      time: flags.time,
      data: flags.data,
    });
    if (flags.json) writeFileSync(flags.json, JSON.stringify(result, null, 2));
    console.log(result.markdown);
  } catch (error) {
    console.error(`micro: ${error.message}`);
    process.exit(1);
  }
}
