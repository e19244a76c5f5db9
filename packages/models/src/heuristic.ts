/**
 * The model-free classifier (`--model heuristic`): shallow text rules in the manner of boilerpipe's
 * density rules and jusText's context step. Blocks are first judged alone (words, link density,
 * where they sit), then short and uncertain blocks take the verdict of their neighbours.
 * It is the fallback when no model file loads, and the baseline every trained model must beat.
 */
import { CLASS_WORD_GROUPS, type SegmentedDocument } from "@winnow/segment";
import { documentContext } from "@winnow/features";

const enum Verdict {
  Bad = 0,
  Good = 1,
  Short = 2, // too short to judge alone
}

function groupBit(name: string): number {
  const index = CLASS_WORD_GROUPS.findIndex(([group]) => group === name);
  return 1 << index;
}

/** Class/id words that mark a block as page furniture whatever its text. */
const FURNITURE =
  groupBit("navigation") |
  groupBit("footer") |
  groupBit("social") |
  groupBit("consent") |
  groupBit("advert") |
  groupBit("account") |
  groupBit("hidden") |
  groupBit("related") |
  groupBit("sidebar");
const FURNITURE_TAGS = /(?:^|\/)(?:nav|footer|aside)(?:\/|$)/;

const MAX_LINK_DENSITY = 0.33;
const GOOD_WORDS = 12;
const SHORT_WORDS = 5;

/** Scores in [0,1] per block: 1 for content, 0 for boilerplate (hard decisions). */
export function heuristicScores(doc: SegmentedDocument): Float32Array {
  const blocks = doc.blocks;
  const n = blocks.length;
  const { stats } = documentContext(doc);
  const verdicts = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const block = blocks[i];
    const linkDensity = block.anchorChars / Math.max(1, block.textChars);
    const words = stats.words[i];
    const furniture = (block.classMask & FURNITURE) !== 0 || FURNITURE_TAGS.test(block.tagPath);
    if (linkDensity > MAX_LINK_DENSITY || (furniture && words < 3 * GOOD_WORDS)) verdicts[i] = Verdict.Bad;
    else if (block.heading > 0 || words < GOOD_WORDS)
      verdicts[i] = words < SHORT_WORDS && block.heading === 0 ? Verdict.Bad : Verdict.Short;
    else verdicts[i] = Verdict.Good;
  }
  // Context: a short block or heading is content when the nearest judged block after it is content
  // (headings introduce what follows) or when both nearest judged neighbours are.
  const scores = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (verdicts[i] !== Verdict.Short) {
      scores[i] = verdicts[i] === Verdict.Good ? 1 : 0;
      continue;
    }
    const next = nearestJudged(verdicts, i, 1);
    const prev = nearestJudged(verdicts, i, -1);
    scores[i] = next === Verdict.Good || (blocks[i].heading === 0 && prev === Verdict.Good && next !== Verdict.Bad) ? 1 : 0;
  }
  return scores;
}

function nearestJudged(verdicts: Uint8Array, from: number, step: 1 | -1): Verdict | -1 {
  for (let j = from + step, k = 0; j >= 0 && j < verdicts.length && k < 4; j += step, k++) {
    if (verdicts[j] !== Verdict.Short) return verdicts[j] as Verdict;
  }
  return -1;
}
