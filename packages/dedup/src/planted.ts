/**
 * Planted near duplicates with a known answer, for the tests and benchmarks/dedup.js: a copy of a
 * text with a share of its words replaced, dropped or doubled, at a seeded random, so the same
 * seed gives the same corpus on every machine.
 */

/** The seeded generator the planted edits draw from (@winnow/random's mulberry32). */
export { mulberry32 as seededRandom } from "@winnow/random";

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
