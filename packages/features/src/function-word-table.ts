/**
 * The function-word table (function-words.ts) as data: built from the stopword lists once, at
 * build time (write-function-words.ts, after tsc), into one file that every thread reads at start.
 * Building it at import cost each thread about 40 ms of CPU (parsing the lists' 207 KB of JSON, a
 * Map of 18,556 words, hashing and placing them); reading the file is a few milliseconds: the
 * numbers are typed-array views of the file's bytes and the words one string split once.
 *
 * The file: eight 32-bit header fields (FILE_MAGIC, languages, words, slots, longest word, bytes
 * of text, two zeros), then four Int32 arrays (each word's mask of languages 0-31 and 32-63, each
 * word's hash, the slots: WordIndexTable), then the languages and the words, one a line, UTF-8.
 * The arrays are in the byte order of the machine that built it, which the magic number checks.
 */
import { CJK, CLASS } from "./char-classes.js";
import { WordIndex } from "./words.js";

/** Every language's function words, each word once, with a bit per language listing it. */
export interface FunctionWordTable {
  /** The languages, in a fixed order: bit i of a word's mask is languages[i]. */
  readonly languages: readonly string[];
  /** The distinct words: entry i is words[i]. */
  readonly words: readonly string[];
  /** The words, looked up by span and hash: an entry is a position in words. */
  readonly index: WordIndex;
  /** Per entry, the languages 0-31 that list it (bit i: languages[i]). */
  readonly maskLo: Int32Array;
  /** Per entry, the languages 32-63 that list it (bit i: languages[32 + i]). */
  readonly maskHi: Int32Array;
}

/** Where the build writes the table: dist/ beside src/, so src (tests) and dist read the same file. */
export const TABLE_FILE: URL = new URL("../dist/function-words.bin", import.meta.url);

/** "wft1" as a little-endian Int32: read back as anything else, the file is not this format or byte order. */
const FILE_MAGIC = 0x31746677;
const HEADER_FIELDS = 8;

/**
 * The table of `lists` (language code -> words; stopwords-iso's form): each word lowercased,
 * empty words and Chinese and Japanese entries of more than one character left out (text is cut
 * into single characters there, so only those can ever match).
 */
export function buildFunctionWordTable(lists: Readonly<Record<string, readonly string[]>>): FunctionWordTable {
  const languages = Object.keys(lists).sort();
  if (languages.length > 64) throw new Error("function-words: more than 64 languages do not fit two 32-bit masks");
  // One Map probe per listed word, no object per word.
  const ids = new Map<string, number>();
  const words: string[] = [];
  const lo: number[] = [];
  const hi: number[] = [];
  for (let bit = 0; bit < languages.length; bit++) {
    const list = lists[languages[bit]];
    const loBit = bit < 32 ? 1 << bit : 0;
    const hiBit = bit < 32 ? 0 : 1 << (bit - 32);
    for (let k = 0; k < list.length; k++) {
      const word = list[k].toLowerCase();
      if (word.length === 0 || (CLASS[word.charCodeAt(0)] & CJK && word.length > 1)) continue;
      let id = ids.get(word);
      if (id === undefined) {
        id = words.length;
        ids.set(word, id);
        words.push(word);
        lo.push(0);
        hi.push(0);
      }
      lo[id] |= loBit;
      hi[id] |= hiBit;
    }
  }
  return { languages, words, index: new WordIndex(words), maskLo: Int32Array.from(lo), maskHi: Int32Array.from(hi) };
}

/** The file's bytes for `table` (decodeFunctionWordTable reads them back). */
export function encodeFunctionWordTable(table: FunctionWordTable): Uint8Array {
  const { languages, words, index, maskLo, maskHi } = table;
  for (const line of [...languages, ...words]) {
    if (line.length === 0 || line.includes("\n")) throw new Error(`function-words: ${JSON.stringify(line)} cannot be a line of the table`);
  }
  const { hashes, slots, longest } = index.table;
  const text = new TextEncoder().encode([...languages, ...words].join("\n"));
  const ints = HEADER_FIELDS + 3 * words.length + slots.length;
  const bytes = new Uint8Array(ints * 4 + text.length);
  const view = new Int32Array(bytes.buffer, 0, ints);
  view.set([FILE_MAGIC, languages.length, words.length, slots.length, longest, text.length, 0, 0]);
  let at = HEADER_FIELDS;
  for (const array of [maskLo, maskHi, hashes, slots]) {
    view.set(array, at);
    at += array.length;
  }
  bytes.set(text, ints * 4);
  return bytes;
}

/** The table in `bytes` (encodeFunctionWordTable's); its arrays are views of them, not copies. */
export function decodeFunctionWordTable(bytes: Uint8Array): FunctionWordTable {
  // Int32Array views need 4-byte alignment; a file read on its own starts at offset 0.
  const data = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  if (data.byteLength < HEADER_FIELDS * 4) throw new Error("function-words: the table file is truncated");
  const header = new Int32Array(data.buffer, data.byteOffset, HEADER_FIELDS);
  if (header[0] !== FILE_MAGIC) throw new Error("function-words: the table file is not in this format or byte order: run npm run build");
  const [, languageCount, wordCount, slotCount, longest, textBytes] = header;
  const ints = HEADER_FIELDS + 3 * wordCount + slotCount;
  if (data.byteLength !== ints * 4 + textBytes) throw new Error("function-words: the table file's length does not match its header");
  let at = data.byteOffset + HEADER_FIELDS * 4;
  const next = (length: number): Int32Array => {
    const array = new Int32Array(data.buffer, at, length);
    at += length * 4;
    return array;
  };
  const maskLo = next(wordCount);
  const maskHi = next(wordCount);
  const hashes = next(wordCount);
  const slots = next(slotCount);
  // Buffer's decoder over the same memory: no copy, and quicker to start than a TextDecoder.
  const lines = Buffer.from(data.buffer, data.byteOffset + ints * 4, textBytes)
    .toString("utf8")
    .split("\n");
  if (lines.length !== languageCount + wordCount) throw new Error("function-words: the table file's words do not match its header");
  const languages = lines.slice(0, languageCount);
  const words = lines.slice(languageCount);
  return { languages, words, index: new WordIndex(words, undefined, { hashes, slots, longest }), maskLo, maskHi };
}
