#!/usr/bin/env node
/**
 * Builds a gzip WARC (one gzip member per record, as crawlers write them) from pages in the WCXB
 * layout: html/NNNN.html.gz + ground-truth/NNNN.json (for the URL). Used for the bundled sample
 * (fixtures/sample.warc.gz, from fixtures/wcxb-sample) and for benchmark inputs, which are made
 * on the machine instead of committed.
 *
 *   node benchmarks/make-warc.js DIR OUT.warc.gz [--repeat N] [--limit N]
 *
 * --repeat writes the whole set N times (with distinct record ids and URLs) for multi-gigabyte
 * memory tests. A warcinfo record, then per page a request-less response record with HTTP headers.
 */
import { createWriteStream, readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { WARCRecord, WARCSerializer } from "warcio";

function usage(message) {
  if (message) console.error(`make-warc: ${message}`);
  console.error("usage: node benchmarks/make-warc.js DIR OUT.warc.gz [--repeat N] [--limit N]");
  process.exit(2);
}

const args = process.argv.slice(2);
const positional = [];
let repeat = 1;
let limit = Infinity;
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--repeat") repeat = Number(args[++i]);
  else if (args[i] === "--limit") limit = Number(args[++i]);
  else positional.push(args[i]);
}
if (positional.length !== 2 || !(repeat >= 1) || !(limit >= 1)) usage();
const [dir, out] = positional;

let ids;
try {
  ids = readdirSync(join(dir, "html"))
    .filter((f) => f.endsWith(".html.gz"))
    .map((f) => basename(f, ".html.gz"))
    .sort()
    .slice(0, limit);
} catch {
  usage(`${dir} has no html/ folder (expected the WCXB layout)`);
}

const output = createWriteStream(out);
const write = (bytes) => (output.write(bytes) ? Promise.resolve() : new Promise((r) => output.once("drain", r)));
const date = "2026-01-01T00:00:00Z";

await write(
  await WARCSerializer.serialize(
    WARCRecord.createWARCInfo(
      { filename: basename(out), warcVersion: "WARC/1.1" },
      { software: "winnow make-warc", format: "WARC File Format 1.1" },
    ),
    { gzip: true },
  ),
);

let records = 0,
  bytes = 0;
for (let round = 0; round < repeat; round++) {
  for (const id of ids) {
    const html = gunzipSync(readFileSync(join(dir, "html", `${id}.html.gz`)));
    let url = `https://example.invalid/${id}`;
    try {
      url = JSON.parse(readFileSync(join(dir, "ground-truth", `${id}.json`), "utf8")).url || url;
    } catch {
      // Pages without ground truth still make records; the URL is then synthetic.
    }
    if (round > 0) url += `${url.includes("?") ? "&" : "?"}winnow-repeat=${round}`;
    const record = WARCRecord.create(
      {
        url,
        date,
        type: "response",
        warcVersion: "WARC/1.1",
        httpHeaders: { "Content-Type": "text/html; charset=utf-8", "Content-Length": String(html.length) },
        statusline: "HTTP/1.1 200 OK",
      },
      [html],
    );
    const serialized = await WARCSerializer.serialize(record, { gzip: true });
    await write(serialized);
    records++;
    bytes += serialized.length;
  }
}
await new Promise((resolve, reject) => output.end((error) => (error ? reject(error) : resolve())));
console.error(`make-warc: ${records} records, ${(bytes / 1e6).toFixed(1)} MB -> ${out}`);
