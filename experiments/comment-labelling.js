#!/usr/bin/env node
/**
 * The tool behind experiments/labels/comments/: find pages of the shared sets that may hold user
 * comments, show their blocks for a person to read, and write the label files of what that person
 * decided, in the block-label format label-ui saves (version 2, source "hand", through the same
 * module: makeLabelFile and writeLabelFile of @winnow/labels).
 *
 *   node experiments/comment-labelling.js candidates --sets wcxb-dev,cleaneval [--data DIR]
 *       one JSON line per page with a comment cue: comment markup (commentMarkup's thread, signed
 *       run and chrome blocks), blocks under comment class words, "N comments" or "Leave a reply"
 *       text, forum page type
 *   node experiments/comment-labelling.js show --set wcxb-dev --ids 0012,0345 [--all]
 *       each page's blocks, numbered, with their comment markup role, class words and gold label
 *       (by default only the gold's runs summarised and the blocks near comment cues in full)
 *   node experiments/comment-labelling.js write --spec experiments/labels/comments/spec.json --out experiments/labels/comments
 *       for every page of the spec ({"set": {"id": "3-10,14,!7" | "g:11-90" | ""}}) a label file in OUT/SET/:
 *       the listed blocks "comment", every other block content or boilerplate by the alignment
 *       with the set's gold (what training reads), "" for a page read and found without comments
 *
 * Page text is printed, never written: the sets' licences keep it out of the repository.
 */
import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { alignBlockLabels, loadLabelledPages } from "@winnow/evaluation";
import { makeLabelFile, writeLabelFile } from "@winnow/labels";
import { COMMENT_CHROME, COMMENT_THREAD, commentMarkup } from "@winnow/models";
import { CLASS_WORD_GROUPS } from "@winnow/segment";
import { parseFlags } from "../benchmarks/lib/common.js";

const [command, ...rest] = process.argv.slice(2);
const flags = parseFlags(rest, ["all", "cues"]);
const root = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const COMMENT_CLASS = 1 << CLASS_WORD_GROUPS.findIndex(([group]) => group === "comments");
const COUNTER = /\b\d+\s+(comments?|replies|responses|reacties|kommentare|commentaires)\b|\bleave a (reply|comment)\b|评论|回复/i;
/** A control inside a thread: reply and report links, votes, "Profile", "Like". */
const BUTTON =
  /^(reply|report|report (this )?comment|report abuse|flag|share|like|likes?\s*\d*|profile|rate this|[+-]?\d+|\|?回复|举报|点赞|赞|顶|踩|\|?分享|\|?\+1[顶踩]\d*|回复·.*|quote|permalink|link|copy link|reply to comment|\(link\)|comment:|edit|delete|(\d+ )?(upvotes?|points?|votes?))$/i;
/** Alignment threshold of training (dataset.ts LABEL_THRESHOLD): the content labels the files carry. */
const LABEL_THRESHOLD = 0.5;
/** commentMarkup's roles the package does not export (comment-markup.ts: COMMENT_SIGNED, COMMENT_DISCUSSION). */
const COMMENT_SIGNED = 3;
const COMMENT_DISCUSSION = 4;
const ROLE = { [COMMENT_THREAD]: "T", [COMMENT_CHROME]: "C", [COMMENT_SIGNED]: "S", [COMMENT_DISCUSSION]: "D" };

const pagesOf = async (set) => loadLabelledPages(join(root, set), { source: set });

/** "3-10,14,!7" to block indexes: ranges, less those after "!" (a reply button inside a thread). */
function parseRanges(text, blocks, where) {
  const out = new Set();
  const but = [];
  for (const part of text.split(",").filter((p) => p.trim() !== "")) {
    const m = /^\s*(!?)(\d+)(?:-(\d+))?\s*$/.exec(part);
    if (!m) throw new Error(`${where}: "${part}" is not a block range`);
    const from = Number(m[2]);
    const to = m[3] === undefined ? from : Number(m[3]);
    if (to < from || to >= blocks) throw new Error(`${where}: ${part} is outside the page's ${blocks} blocks`);
    for (let b = from; b <= to; b++) {
      if (m[1] === "!") but.push(b);
      else out.add(b);
    }
  }
  for (const b of but) out.delete(b);
  return out;
}

if (command === "candidates") {
  for (const set of (flags.sets ?? "wcxb-dev").split(",")) {
    for (const page of await pagesOf(set)) {
      const markup = commentMarkup(page.doc);
      const count = (role) => (markup === null ? 0 : markup.filter((r) => r === role).length);
      const cls = page.doc.blocks.filter((b) => (b.classMask & COMMENT_CLASS) !== 0).length;
      const counter = page.doc.blocks.filter((b) => b.text.length < 200 && COUNTER.test(b.text)).length;
      const cue = count(COMMENT_THREAD) + count(COMMENT_SIGNED) + count(COMMENT_CHROME) + cls + counter;
      if (cue === 0 && page.pageType !== "forum") continue;
      console.log(
        JSON.stringify({
          set,
          id: page.id,
          type: page.pageType,
          url: page.url,
          blocks: page.doc.blocks.length,
          thread: count(COMMENT_THREAD),
          signed: count(COMMENT_SIGNED),
          chrome: count(COMMENT_CHROME),
          cls,
          counter,
        }),
      );
    }
  }
} else if (command === "show") {
  const ids = new Set(String(flags.ids).split(","));
  for (const page of await pagesOf(flags.set)) {
    if (!ids.has(page.id)) continue;
    const texts = page.doc.blocks.map((b) => b.text);
    const gold = alignBlockLabels(texts, page.gold, { threshold: LABEL_THRESHOLD }).labels;
    const markup = commentMarkup(page.doc);
    const cue = (b) =>
      (markup !== null && markup[b] !== 0) ||
      (page.doc.blocks[b].classMask & COMMENT_CLASS) !== 0 ||
      (texts[b].length < 200 && COUNTER.test(texts[b]));
    const reach = flags.cues ? [0] : [-2, -1, 0, 1, 2];
    const near = (b) => flags.all || reach.some((d) => b + d >= 0 && b + d < texts.length && cue(b + d));
    const runs = [];
    gold.forEach((g, b) => {
      if (g !== 1) return;
      if (runs.length > 0 && runs[runs.length - 1][1] === b - 1) runs[runs.length - 1][1] = b;
      else runs.push([b, b]);
    });
    console.log(
      `=== ${flags.set} ${page.id} ${page.pageType} ${page.url} (${texts.length} blocks; gold ${runs.map(([a, z]) => (a === z ? a : `${a}-${z}`)).join(",")})`,
    );
    let run = null;
    const flush = () => {
      if (run !== null) console.log(`  ${run.from}-${run.to} gold ${run.label}: ${run.words} words, "${run.first.slice(0, 60)}"`);
      run = null;
    };
    texts.forEach((text, b) => {
      if (!near(b)) {
        const words = text.split(/\s+/).length;
        if (run !== null && run.label === gold[b]) {
          run.to = b;
          run.words += words;
        } else {
          flush();
          run = { from: b, to: b, label: gold[b], words, first: text };
        }
        return;
      }
      flush();
      const role = markup === null ? "-" : (ROLE[markup[b]] ?? "-");
      const classes = page.doc.blocks[b].classIds.slice(0, 40);
      console.log(`${b} ${role} g${gold[b]} [${classes}] ${text.replace(/\s+/g, " ").slice(0, flags.width ? Number(flags.width) : 160)}`);
    });
    flush();
  }
} else if (command === "buttons") {
  // The short blocks of a range that are controls, not comment text (for the "!" exclusions).
  const [from, to] = String(flags.range).split("-").map(Number);
  const page = (await pagesOf(flags.set)).find((p) => p.id === flags.id);
  const out = [];
  for (let b = from; b <= to; b++) if (BUTTON.test(page.doc.blocks[b].text.trim())) out.push(`!${b}`);
  console.log(out.join(","));
} else if (command === "thread") {
  // A first guess for a person to check: the longest run of thread or signed blocks (gaps of up
  // to 4 other blocks), less the controls in it, with the blocks around both ends shown.
  for (const page of await pagesOf(flags.set)) {
    if (!String(flags.ids).split(",").includes(page.id)) continue;
    const markup = commentMarkup(page.doc) ?? new Uint8Array(page.doc.blocks.length);
    let best = null;
    let run = null;
    markup.forEach((role, b) => {
      if (role !== COMMENT_THREAD && role !== COMMENT_SIGNED) return;
      if (run !== null && b - run[1] <= 5) run[1] = b;
      else run = [b, b];
      if (best === null || run[1] - run[0] > best[1] - best[0]) best = [...run];
    });
    if (best === null) {
      console.log(`${page.id}: no thread`);
      continue;
    }
    const texts = page.doc.blocks.map((b) => b.text.replace(/\s+/g, " ").slice(0, 50));
    const but = [];
    for (let b = best[0]; b <= best[1]; b++) if (BUTTON.test(page.doc.blocks[b].text.trim())) but.push(`!${b}`);
    console.log(`"${page.id}": "${[`${best[0]}-${best[1]}`, ...but].join(",")}",`);
    for (const b of [best[0] - 2, best[0] - 1, best[0], best[0] + 1, best[1] - 1, best[1], best[1] + 1, best[1] + 2])
      if (b >= 0 && b < texts.length) console.log(`   ${b} ${texts[b]}`);
  }
} else if (command === "write") {
  const spec = JSON.parse(await readFile(flags.spec, "utf8"));
  for (const [set, decided] of Object.entries(spec)) {
    const dir = join(flags.out, set);
    mkdirSync(dir, { recursive: true });
    const byId = new Map((await pagesOf(set)).map((p) => [p.id, p]));
    let withComments = 0;
    for (const [id, ranges] of Object.entries(decided)) {
      const page = byId.get(id);
      if (page === undefined) throw new Error(`${flags.spec}: ${set} has no page ${id}`);
      const texts = page.doc.blocks.map((b) => b.text);
      // "g:" before the ranges: only their blocks the gold calls content (a forum's replies, less
      // the like counts and buttons between them that the gold leaves out).
      const onlyGold = ranges.startsWith("g:");
      const gold = alignBlockLabels(texts, page.gold, { threshold: LABEL_THRESHOLD }).labels;
      const comments = parseRanges(onlyGold ? ranges.slice(2) : ranges, texts.length, `${flags.spec}: ${set} ${id}`);
      if (onlyGold) for (const b of comments) if (gold[b] !== 1) comments.delete(b);
      const labels = texts.map((_, b) => (comments.has(b) ? "comment" : gold[b]));
      await writeLabelFile(dir, makeLabelFile({ id, url: page.url, blockTexts: texts }, labels, "hand", { commentsLabelled: true }));
      if (comments.size > 0) withComments++;
    }
    console.log(`${set}: ${Object.keys(decided).length} pages, ${withComments} with comments`);
  }
} else {
  throw new Error("usage: comment-labelling.js candidates|show|write (see the top of the file)");
}
