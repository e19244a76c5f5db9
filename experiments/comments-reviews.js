#!/usr/bin/env node
/**
 * Whose are user reviews? Over the shared sets, the blocks under review class words (Bazaarvoice's
 * `bv-content*`, `review_body|text|copy|content|blurb`, `user/customer_review(s)`, `blurb`,
 * `shout_body`, in the block's three innermost elements) and where each set's gold puts their
 * words: main text, comments (comment gold), or neither. A rule that sent reviews to `comments`
 * would have to agree with all of them.
 *
 *   node experiments/comments-reviews.js [--data DIR]
 */
import { parseFlags } from "../benchmarks/lib/common.js";
import { alignBlockLabels, loadWcxb } from "@winnow/evaluation";
import { segmentHtml } from "@winnow/segment";
const flags = parseFlags(process.argv.slice(2), []);
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const RE =
  /(^|[^a-z])(bv-content[a-z-]*|review[-_]?(body|text|copy|content|blurb)|user[-_]?reviews?|customer[-_]?reviews?|blurb|shout[-_]?body)([^a-z]|$)/;
for (const set of [
  "wcxb-dev",
  "cleaneval",
  "l3s-gn1",
  "googletrends-2017",
  "magic-html",
  "cleanportaleval",
  "newspaper3k",
  "chinese-wce",
]) {
  let pages = 0,
    main = 0,
    com = 0,
    other = 0;
  const ids = [];
  for await (const page of loadWcxb(`${root}/${set}`)) {
    const doc = segmentHtml(page.html);
    const texts = doc.blocks.map((b) => b.text);
    let hit = false,
      m = 0,
      c = 0,
      o = 0;
    const inMain = alignBlockLabels(texts, page.gold, { threshold: 0.5 });
    const inCom = page.comments ? alignBlockLabels(texts, page.comments, { threshold: 0.5 }).labels : null;
    doc.blocks.forEach((b, i) => {
      if (!RE.test(b.classIds.split(" | ").slice(-3).join(" "))) return;
      hit = true;
      const w = inMain.tokens[i];
      if (inMain.labels[i] === 1) m += w;
      else if (inCom?.[i] === 1) c += w;
      else o += w;
    });
    if (hit) {
      pages++;
      main += m;
      com += c;
      other += o;
      ids.push(`${page.id}:${m}/${c}/${o}`);
    }
  }
  console.log(set, "pages", pages, "words main", main, "comments", com, "neither", other, ids.slice(0, 12).join(" "));
}
