/**
 * XML 1.0 escaping for texrex-style output.
 *
 * Each string is scanned once with a non-global regex; only the rare string that contains
 * something to rewrite pays for `replace`, so clean text costs no allocation here.
 */

// Lone surrogates are matched precisely (lookaround on UTF-16 code units, no `u` flag), so valid
// pairs (emoji, rare CJK) stay on the fast path.
const LONE_SURROGATE = "[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]";

// Character data: markup characters, CR (a parser would fold it into LF, so it is kept as a
// reference) and the C0 controls, U+FFFE and U+FFFF that XML 1.0 forbids outright.
const TEXT_SRC = `[&<>\\r\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\uFFFE\\uFFFF]|${LONE_SURROGATE}`;
// Attributes additionally escape quotes, and tab/LF, which attribute-value normalisation would
// otherwise turn into spaces.
const ATTR_SRC = `[&<>"'\\t\\n\\r\\x00-\\x1F\\uFFFE\\uFFFF]|${LONE_SURROGATE}`;

const TEXT_TEST = new RegExp(TEXT_SRC);
const TEXT_ALL = new RegExp(TEXT_SRC, "g");
const ATTR_TEST = new RegExp(ATTR_SRC);
const ATTR_ALL = new RegExp(ATTR_SRC, "g");

function replacement(c: string): string {
  switch (c) {
    case "&":
      return "&amp;";
    case "<":
      return "&lt;";
    case ">":
      return "&gt;";
    case '"':
      return "&quot;";
    case "'":
      return "&apos;";
    case "\t":
      return "&#9;";
    case "\n":
      return "&#10;";
    case "\r":
      return "&#13;";
    default:
      // Illegal in XML 1.0 even as a character reference: dropped.
      return "";
  }
}

/** Escapes character data (element content). */
export function escapeText(s: string): string {
  return TEXT_TEST.test(s) ? s.replace(TEXT_ALL, replacement) : s;
}

/** Escapes a double-quoted attribute value so that it round-trips through a conforming parser. */
export function escapeAttr(s: string): string {
  return ATTR_TEST.test(s) ? s.replace(ATTR_ALL, replacement) : s;
}
