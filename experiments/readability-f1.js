#!/usr/bin/env node
/**
 * Readability.js's word F1 on labelled sets, scored as `winnow eval` scores winnow: the same
 * pages, the same gold and the same scorer (@winnow/evaluation's wordScores: the WCXB authors'
 * lowercased `\w+` bags, Han and kana one token per character), mean over pages. This is the
 * peer column of the README's Quality table, reproduced here rather than quoted.
 *
 * Readability.js (@mozilla/readability, a root devDependency) runs on linkedom's DOM, as in
 * benchmarks/end-to-end.js; its article's textContent is the extraction. A page where it finds
 * no article (parse() gives null) or throws scores 0, as an empty extraction does in winnow's
 * evaluation. Pages whose gold is empty are left out, as `winnow eval` leaves them out.
 *
 *   npx tsc -b && node experiments/readability-f1.js --data ../shared/data/googletrends-2017 [--data DIR ...] [--out FILE]
 *
 * Time on the 2-core shared machine, beside other jobs: about 1 s per 10 pages of WCXB dev
 * (large pages), less on the others; the README says which sets were measured and when.
 */
import { writeFileSync } from "node:fs";
import { basename } from "node:path";
import { Readability } from "@mozilla/readability";
import { loadWcxb, wordScores } from "@winnow/evaluation";
import { parseHTML } from "linkedom";

/** --data may be given several times; --out writes the figures as JSON. */
function parseArgs(argv) {
  const sets = [];
  let out;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--data" && i + 1 < argv.length) sets.push(argv[++i]);
    else if (argv[i] === "--out" && i + 1 < argv.length) out = argv[++i];
    else throw new Error(`unknown argument ${argv[i]}; usage: --data DIR [--data DIR ...] [--out FILE]`);
  }
  if (sets.length === 0) throw new Error("give at least one --data DIR (a labelled set in the WCXB layout)");
  return { sets, out };
}

/** Readability's text of one page, "" where it finds no article. */
function readabilityText(html, url) {
  try {
    const { document } = parseHTML(html);
    // Readability resolves links against the document's URL; linkedom's default is about:blank.
    if (url) Object.defineProperty(document, "documentURI", { value: url });
    return new Readability(document).parse()?.textContent ?? "";
  } catch {
    return "";
  }
}

async function scoreSet(dir) {
  const started = performance.now();
  let pages = 0;
  let noArticle = 0;
  const sum = { precision: 0, recall: 0, f1: 0 };
  for await (const page of loadWcxb(dir)) {
    if (page.gold.trim() === "") continue;
    const text = readabilityText(page.html, page.url);
    if (text === "") noArticle++;
    const s = wordScores(text, page.gold);
    sum.precision += s.precision;
    sum.recall += s.recall;
    sum.f1 += s.f1;
    pages++;
  }
  const mean = (x) => Number((x / pages).toFixed(3));
  return {
    set: basename(dir),
    pages,
    noArticle,
    precision: mean(sum.precision),
    recall: mean(sum.recall),
    f1: mean(sum.f1),
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
  };
}

const { sets, out } = parseArgs(process.argv.slice(2));
const results = [];
for (const dir of sets) {
  const r = await scoreSet(dir);
  results.push(r);
  console.log(
    `${r.set}: ${r.pages} pages, P ${r.precision.toFixed(3)} R ${r.recall.toFixed(3)} F1 ${r.f1.toFixed(3)}` +
      ` (no article on ${r.noArticle}), ${r.seconds} s`,
  );
}
if (out !== undefined) writeFileSync(out, `${JSON.stringify({ date: new Date().toISOString().slice(0, 10), results }, null, 2)}\n`);
