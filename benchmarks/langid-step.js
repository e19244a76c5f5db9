#!/usr/bin/env node
/**
 * What the language step costs per document, an earlier build against this one, in one process:
 * the same cleaned WCXB pages (this build's cleanPages with the default model, once) labelled by
 * each build's corpus steps with language ID only (`DocumentSteps.apply`, as `winnow clean` runs
 * it), rounds interleaved, CPU time per round (process.cpuUsage), medians. The labels and scores
 * of the two builds are compared document by document.
 *
 *   npx turbo run build --filter=@winnow/clean... && node benchmarks/langid-step.js --before OTHER_CHECKOUT [--data DIR] [--limit 400] [--rounds 9]
 *   (OTHER_CHECKOUT: a built checkout of the earlier commit whose node_modules resolve its own
 *   @winnow packages; see experiments/segment-equivalence.js)
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gunzipSync } from "node:zlib";
import { DEFAULT_SOURCE, parseFlags, ROOT } from "./lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
if (flags.before === undefined) throw new Error("--before OTHER_CHECKOUT is needed");
const data = flags.data ?? DEFAULT_SOURCE;
const limit = Number(flags.limit ?? 400);
const rounds = Number(flags.rounds ?? 9);
const batchSize = 16;

const load = (root, path) => import(pathToFileURL(join(root, path)).href);
const page = await load(ROOT, "pipelines/clean/dist/page.js");
const { loadClassifier } = await load(ROOT, "packages/models/dist/index.js");
const classifier = await loadClassifier("mlp");
const htmlDir = join(data, "html");
const files = readdirSync(htmlDir).sort().slice(0, limit);
const outputs = [];
for (let i = 0; i < files.length; i += batchSize) {
  const inputs = files.slice(i, i + batchSize).map((f) => ({
    body: gunzipSync(readFileSync(join(htmlDir, f))),
    headerCharset: "",
    url: `https://example.org/${f.replace(/\.html\.gz$/, "")}`,
  }));
  outputs.push(...(await page.cleanPages(inputs, classifier)));
}
const kept = outputs.filter((o) => o.ok && o.blocks.length > 0);
await classifier.close();

async function build(root) {
  const { DocumentSteps } = await load(root, "pipelines/clean/dist/steps.js");
  const steps = await DocumentSteps.open({ langId: true, filters: [], stats: false, keepFiltered: false });
  return () => {
    // Each build labels its own copies, so that one's labels are never the other's.
    const docs = kept.map((o) => ({ ...o }));
    for (let i = 0; i < docs.length; i += batchSize) steps.apply(docs.slice(i, i + batchSize));
    return docs;
  };
}
const builds = { before: await build(flags.before), after: await build(ROOT) };
const names = Object.keys(builds);

const labelled = Object.fromEntries(names.map((n) => [n, builds[n]()]));
const differ = kept.filter(
  (_, i) => labelled.before[i].lang !== labelled.after[i].lang || labelled.before[i].langScore !== labelled.after[i].langScore,
).length;

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const times = Object.fromEntries(names.map((n) => [n, []]));
for (let r = 0; r < rounds; r++) {
  for (let k = 0; k < names.length; k++) {
    const name = names[(r + k) % names.length];
    const t = cpu();
    builds[name]();
    times[name].push(cpu() - t);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`language step, ${kept.length} cleaned pages of ${data}, ${rounds} rounds interleaved, CPU medians`);
console.log("");
console.log("| build | CPU s per round | µs per document | rounds (s) |");
console.log("| --- | ---: | ---: | --- |");
for (const name of names) {
  const m = median(times[name]);
  console.log(
    `| ${name} | ${m.toFixed(3)} | ${((m / kept.length) * 1e6).toFixed(0)} | ${times[name].map((t) => t.toFixed(3)).join(" ")} |`,
  );
}
console.log("");
console.log(`after / before: ${(median(times.before) / median(times.after)).toFixed(3)}× the documents per CPU-second`);
console.log(`documents whose lang or lang_score differ: ${differ} of ${kept.length}`);
