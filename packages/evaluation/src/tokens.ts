/**
 * Word tokens exactly as the WCXB scorer takes them: Python `re.findall(r"\w+", text.lower())`.
 *
 * For `str` patterns Python's `\w` is `str.isalnum() or "_"`, i.e. Unicode categories L* and N*
 * plus "_". Combining marks (Mn, Mc, Me) are NOT word characters there, so "cafe\u0301" gives
 * ["cafe"] and Devanagari vowel signs split words ("नमस्ते" → ["नमस", "त"]). We reproduce that
 * split on purpose: scores must match the published benchmark, not linguistics.
 *
 * Checked by enumerating every code point against Python 3.11 (Unicode 14): identical on all
 * code points assigned in Unicode 14; Node's newer tables only add later-assigned letters.
 * Lowercasing agrees likewise (both use full case mappings, final sigma included).
 */
const WORD = /[\p{L}\p{N}_]+/gu;

/** Lowercased `\w+` words of `text`. */
export function wordTokens(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}
