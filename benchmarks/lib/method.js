#!/usr/bin/env node
/**
 * One end-to-end measurement in its own process (so peak RSS, heap and JIT state belong to that
 * method alone): read the WARC, decode each HTML record, run the method, write what it yields.
 * Prints one JSON line with the figures.
 *
 *   node benchmarks/lib/method.js --method read|parse|parse-skipping|readability|heuristic|mlp|bilstm --input WARC
 *        [--passes K] [--workers N] [--model PATH] [--batch-size N] [--unordered] [--sample-rss MS]
 *
 * Every method goes through the same reader and decoder (@winnow/archive), so the differences
 * are the extraction itself. --passes reads the same file K times (a longer run without a
 * bigger file to carry; winnow's runs read a copy per pass, since a run reads a file named twice
 * only once).
 */
import { copyFileSync, createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { parseFlags, segmentsHtmlparser2 } from "./common.js";

const flags = parseFlags(process.argv.slice(2), ["unordered"]);
const method = flags.method;
const input = flags.input;
const passes = Number(flags.passes ?? 1);
if (!method || !input) {
  console.error(
    "usage: method.js --method read|parse|parse-skipping|readability|heuristic|mlp|bilstm --input WARC [--passes K] [--workers N] [--model PATH]",
  );
  process.exit(2);
}
const inputs = Array.from({ length: passes }, () => input);

// --sample-rss: memory over time, to tell a flat plateau from growth (a leak grows with input).
const samples = [];
const sampler = flags["sample-rss"]
  ? setInterval(
      () => {
        const m = process.memoryUsage();
        samples.push({
          t: +process.uptime().toFixed(2),
          rss: m.rss,
          heapUsed: m.heapUsed,
          external: m.external,
          arrayBuffers: m.arrayBuffers,
        });
      },
      Number(flags["sample-rss"]) > 1 ? Number(flags["sample-rss"]) : 500,
    )
  : null;
sampler?.unref();
const outDir = mkdtempSync(join(tmpdir(), "winnow-bench-"));

/**
 * Reads every HTML record of every pass, decodes it, hands the text and the record to `each`.
 * `decode`: "whole" gives one string per page (what a user of htmlparser2 or Readability does),
 * "pieces" the 32 KB pieces winnow's pipeline decodes into, false nothing.
 */
async function overRecords(each, decode = "whole") {
  const { readRecords, decodeHtml, decodeHtmlPieces } = await import("@winnow/archive");
  let records = 0;
  let payloadBytes = 0;
  for (const file of inputs) {
    for await (const record of readRecords(file)) {
      records++;
      payloadBytes += record.body.byteLength;
      const text =
        decode === "whole"
          ? decodeHtml(record.body, record.charset).html
          : decode === "pieces"
            ? decodeHtmlPieces(record.body, record.charset).pieces
            : "";
      await each(text, record);
    }
  }
  return { records, payloadBytes };
}

/**
 * Peak RSS of this process, worker threads included. On Linux VmHWM, the high-water mark of
 * this process's own memory map: ru_maxrss would also count the parent's RSS at fork time (Linux
 * carries it over exec), so a child of a big benchmark process would report the parent's size.
 */
function peakRss() {
  try {
    const kb = /^VmHWM:\s*(\d+) kB/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (kb) return Number(kb[1]) * 1024;
  } catch {
    // Not Linux: fall back to getrusage.
  }
  return process.resourceUsage().maxRSS * 1024;
}

/**
 * CPU seconds of the main thread alone (Linux: /proc/self/task/PID/stat, 10 ms ticks), or null.
 * With worker threads, main-thread seconds per page bound the pool: reading, gunzip, handing
 * batches over and writing all happen there, so 1 / (that) is the most pages/s any worker count can reach.
 */
function mainThreadCpu() {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, USER_HZ = 100 on Linux
  } catch {
    return null;
  }
}

/** JSON lines to a file, waiting on the stream when it is full, as a real writer must. */
function lineWriter(path) {
  const stream = createWriteStream(path);
  return {
    write: (value) => (stream.write(`${JSON.stringify(value)}\n`) ? undefined : new Promise((r) => stream.once("drain", r))),
    close: () => new Promise((resolve, reject) => stream.end((e) => (e ? reject(e) : resolve()))),
  };
}

async function measure(run) {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const extra = await run();
  const cpu = process.cpuUsage(c0);
  return {
    elapsedSeconds: (performance.now() - t0) / 1000,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    ...extra,
  };
}

let result;
try {
  if (method === "read") {
    // The pool's main thread does this (plus the hand-over and the writing) for every page:
    // its rate caps what any number of workers can reach.
    result = await measure(async () => ({ ...(await overRecords(() => undefined, false)), documents: 0, detail: "readRecords" }));
  } else if (method === "parse" || method === "parse-skipping") {
    const { module, version } = await segmentsHtmlparser2();
    // parse-skipping: the same parser as winnow's segmenter runs it: its tokenizer, on the
    // pieces winnow decodes a page into.
    const stock = method === "parse";
    const Tokenizer = stock ? module.Tokenizer : (await import("@winnow/segment")).SkippingTokenizer;
    // Empty callbacks, and the options winnow's segmenter uses (entities decoded), so the parser
    // does the same tokenizing work and nothing else.
    const noop = () => {};
    const handler = { onopentagname: noop, onattribute: noop, onclosetag: noop, ontext: noop, onprocessinginstruction: noop };
    result = await measure(async () => {
      const counts = await overRecords(
        (html) => {
          const parser = new module.Parser(handler, { decodeEntities: true, lowerCaseAttributeNames: false, Tokenizer });
          if (stock) parser.end(html);
          else {
            for (const piece of html) parser.write(piece);
            parser.end();
          }
        },
        stock ? "whole" : "pieces",
      );
      return {
        ...counts,
        documents: counts.records,
        detail: `htmlparser2 ${version}${stock ? "" : ", SkippingTokenizer, decoded in pieces"}`,
      };
    });
  } else if (method === "readability") {
    const [{ Readability }, { parseHTML }] = await Promise.all([import("@mozilla/readability"), import("linkedom")]);
    result = await measure(async () => {
      const out = lineWriter(join(outDir, "readability.jsonl"));
      let documents = 0;
      let failures = 0;
      const counts = await overRecords((html, record) => {
        let article = null;
        try {
          const { document } = parseHTML(html);
          article = new Readability(document).parse();
        } catch {
          failures++;
        }
        if (!article?.textContent) return undefined;
        documents++;
        return out.write({ url: record.url, title: article.title ?? "", text: article.textContent });
      });
      await out.close();
      return { ...counts, documents, detail: `failures ${failures}` };
    });
  } else if (method === "heuristic" || method === "mlp" || method === "bilstm") {
    const { runClean } = await import("@winnow/clean");
    // bilstm without --model runs the shipped BiLSTM, by its built-in name.
    const model = method === "heuristic" ? "heuristic" : method === "bilstm" ? (flags.model ?? "bilstm") : flags.model;
    if (!model) throw new Error("--method mlp needs --model PATH");
    const workers = Number(flags.workers ?? 0);
    // runClean reads a file named twice only once (its documents would be written twice), so
    // each further pass reads its own copy, made before the clock starts.
    const copies = inputs.map((file, i) => {
      if (i === 0) return file;
      const copy = join(outDir, `pass-${i + 1}-${basename(file)}`);
      copyFileSync(file, copy);
      return copy;
    });
    const main0 = mainThreadCpu();
    const summary = await runClean({
      inputs: copies,
      output: join(outDir, "winnow.jsonl"),
      model,
      workers,
      batchSize: flags["batch-size"] ? Number(flags["batch-size"]) : undefined,
      unordered: flags.unordered === true || flags.unordered === "true",
      // --lang-id: the corpus step `winnow clean` runs by default (language identification, no
      // filters), so a figure reads as the command's; without it only extraction and metadata run.
      corpus:
        flags["lang-id"] === true || flags["lang-id"] === "true"
          ? { langId: true, filters: [], stats: false, keepFiltered: false }
          : undefined,
    });
    // A run that read fewer inputs than it was given (a file it took for a repeat, say) would
    // measure less work than the figures claim: stop rather than report it.
    if (summary.inputs !== copies.length) {
      throw new Error(
        `runClean read ${summary.inputs} of the ${copies.length} inputs given: the figures would not be for ${passes} passes`,
      );
    }
    // Payload bytes are not in the summary; the caller knows them per file (warcStats).
    result = {
      elapsedSeconds: summary.elapsedSeconds,
      cpuSeconds: summary.cpuSeconds,
      records: summary.recordsRead,
      documents: summary.documentsWritten,
      payloadBytes: null,
      detail: `workers ${workers}${flags.unordered ? ", unordered" : ""}`,
      mainThreadCpuSeconds: main0 === null ? null : mainThreadCpu() - main0,
    };
  } else {
    throw new Error(`unknown method ${method}`);
  }
} finally {
  if (sampler) clearInterval(sampler);
  rmSync(outDir, { recursive: true, force: true });
}
if (sampler) result.rssSamples = samples;

result.peakRssBytes = peakRss();
result.method = method;
console.log(JSON.stringify(result));
