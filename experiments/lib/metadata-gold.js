import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { domainFolds } from "@winnow/evaluation";
import { scoreBatch } from "@winnow/models";

/**
 * A labelled set's pages as the metadata experiments split them: its ids in order, its
 * metadata.json files, and each page's domain fold (k=2, seed 1), rules being tuned on fold 0.
 */
export function setPages(dir) {
  const files = JSON.parse(readFileSync(join(dir, "metadata.json"), "utf8")).files;
  const ids = readdirSync(join(dir, "ground-truth"))
    .sort()
    .map((f) => f.replace(/\.json$/, ""));
  const folds = domainFolds(
    ids.map((id) => ({ id, domain: files[id]?.domain ?? "" })),
    2,
    1,
  );
  return { files, ids, folds };
}

/**
 * The indexes of the blocks `classifier` keeps of a segmented page, scored as clean scores a
 * page (scoreBatch: the comment head's veto and the empty-page fallback included).
 */
export async function modelKeptBlocks(classifier, doc) {
  const batch = scoreBatch(classifier);
  await batch.add(doc);
  const [scores] = await batch.score();
  const kept = [];
  for (let b = 0; b < doc.blocks.length; b++) if (scores[b] >= classifier.threshold) kept.push(b);
  return kept;
}

/**
 * The gold's publication dates as days, read by the experiments' own parser (not winnow's, which
 * they measure): ISO-like `2005-5-7 21:23:57`, US month/day/year ("9/17/2018", GoogleTrends is
 * American), English month names ("Sep 24 2018, 3:03 PM", "on September 25, 2018"), Chinese
 * `2005年5月7日`. Relative ones ("7 hours ago", "Yesterday") and a year alone are no day.
 */
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const pad = (n) => String(n).padStart(2, "0");
function day(y, m, d) {
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1990 || y > 2030) return undefined;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/** The gold's date as a day (YYYY-MM-DD), or undefined. */
export function goldDay(written) {
  const s = written.trim();
  let m = /(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})/.exec(s);
  if (m !== null) return day(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /(\d{1,2})\/(\d{1,2})\/(\d{4})/.exec(s);
  if (m !== null) return day(Number(m[3]), Number(m[1]), Number(m[2]));
  m = /\b([a-z]{3})[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})/i.exec(s);
  if (m !== null && MONTHS.includes(m[1].toLowerCase())) return day(Number(m[3]), MONTHS.indexOf(m[1].toLowerCase()) + 1, Number(m[2]));
  m = /\b(\d{1,2})\s+([a-z]{3})[a-z]*\.?,?\s+(\d{4})/i.exec(s);
  if (m !== null && MONTHS.includes(m[2].toLowerCase())) return day(Number(m[3]), MONTHS.indexOf(m[2].toLowerCase()) + 1, Number(m[1]));
  return undefined;
}
