import { describe, expect, it } from "vitest";
import { escapeAttr, escapeText } from "./xml.js";

describe("escapeText", () => {
  it("returns clean strings untouched (same string, no copy)", () => {
    const s = "Plain text with émojis 😀 and 東京, quotes \"x\" and 'y'\tand\nlines";
    expect(escapeText(s)).toBe(s);
  });

  it("escapes markup and keeps CR as a reference", () => {
    expect(escapeText("a < b && c > d\r\n")).toBe("a &lt; b &amp;&amp; c &gt; d&#13;\n");
  });

  it("strips characters illegal in XML 1.0", () => {
    expect(escapeText("a\u0000b\u0001c\u000bd\u000ce\u001ff\ufffeg\uffffh")).toBe("abcdefgh");
  });

  it("strips lone surrogates but keeps valid pairs", () => {
    expect(escapeText("x\ud800y")).toBe("xy");
    expect(escapeText("x\udc00y")).toBe("xy");
    expect(escapeText("\udc00\ud83d\ude00\ud800")).toBe("\ud83d\ude00");
    expect(escapeText("end\ud83d")).toBe("end");
  });
});

describe("escapeAttr", () => {
  it("escapes quotes and the whitespace that attribute normalisation would fold", () => {
    expect(escapeAttr(`a"b'c&d<e>f\tg\nh\ri`)).toBe("a&quot;b&apos;c&amp;d&lt;e&gt;f&#9;g&#10;h&#13;i");
  });

  it("strips illegal characters", () => {
    expect(escapeAttr("t\u0007i\ud800tle")).toBe("title");
  });
});
