/**
 * Planted near duplicates with a known answer, for the tests and benchmarks/dedup.js: a copy of a
 * text with a share of its words replaced, dropped or doubled, at a seeded random, so the same
 * seed gives the same corpus on every machine.
 */

/**
 * Mulberry32: a small seeded generator, enough for choosing words to edit. (@winnow/labels has
 * the same one; dedup depends on no other winnow package, so it keeps these eight lines.)
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `text` with about `rate` of its words edited (each edited word replaced by a made-up word,
 * dropped or doubled, in equal shares); lines are kept, so paragraphs stay paragraphs.
 */
export function editWords(text: string, rate: number, random: () => number): string {
  return text
    .split("\n")
    .map((line) => {
      const out: string[] = [];
      for (const word of line.split(" ")) {
        if (word === "" || random() >= rate) {
          out.push(word);
          continue;
        }
        const r = random();
        if (r < 1 / 3) out.push(`w${Math.floor(random() * 1e9).toString(36)}`);
        else if (r < 2 / 3) out.push(word, word);
        // else: dropped
      }
      return out.join(" ");
    })
    .join("\n");
}
