import { describe, expect, it } from "vitest";
import { segmentHtml } from "./segmenter.js";

const layouts = (html: string) => segmentHtml(html).blocks.map((b) => ({ text: b.text, layout: b.layout }));

describe("block layout", () => {
  it("marks list items with their marker, nesting and first block; ol counts from start", () => {
    const got = layouts(`<ul><li>One<ul><li>One a</li></ul></li><li><p>Two</p><p>Two more</p></li></ul>
<ol start="3"><li>Third<li>Fourth</ol><p>After</p>`);
    expect(got).toEqual([
      { text: "One", layout: { list: { depth: 1, marker: "-", first: true } } },
      { text: "One a", layout: { list: { depth: 2, marker: "-", first: true } } },
      { text: "Two", layout: { list: { depth: 1, marker: "-", first: true } } },
      { text: "Two more", layout: { list: { depth: 1, marker: "-", first: false } } },
      { text: "Third", layout: { list: { depth: 1, marker: "3.", first: true } } },
      { text: "Fourth", layout: { list: { depth: 1, marker: "4.", first: true } } },
      { text: "After", layout: undefined },
    ]);
  });

  it("gives table cells their table, row, column, span and header flag (unclosed cells too)", () => {
    const got = layouts(`<table><thead><tr><th>Jahr<th>Wert</tr></thead>
<tbody><tr><td colspan="2">2020 total</td></tr><tr><td>2021<td>12,5</tr></tbody></table>`);
    const cells = got.map((b) => [b.text, b.layout?.cell?.row, b.layout?.cell?.column, b.layout?.cell?.span, b.layout?.cell?.header]);
    const [r1, r2, r3] = [got[0].layout?.cell?.row, got[2].layout?.cell?.row, got[3].layout?.cell?.row];
    expect(new Set([r1, r2, r3]).size).toBe(3);
    expect(cells).toEqual([
      ["Jahr", r1, 0, 1, true],
      ["Wert", r1, 1, 1, true],
      ["2020 total", r2, 0, 2, false],
      ["2021", r3, 0, 1, false],
      ["12,5", r3, 1, 1, false],
    ]);
    expect(got.every((b) => b.layout?.cell?.table === got[0].layout?.cell?.table)).toBe(true);
  });

  it("leaves text in a paragraph inside a cell (layout tables) as a plain block", () => {
    expect(layouts("<table><tr><td><p>Story paragraph.</p></td></tr></table>")[0].layout).toBeUndefined();
  });

  it("keeps <pre> text as written beside the folded text", () => {
    const [code] = segmentHtml("<pre>\ndef f(x):\n    return x + 1\n</pre>").blocks;
    expect(code.text).toBe("def f(x): return x + 1");
    expect(code.layout?.pre).toBe("def f(x):\n    return x + 1");
  });

  it("gives every layout the same four fields in one order, absent parts undefined (one hidden class)", () => {
    const html = `<ul><li>Item</li></ul><table><tr><td>Cell</td></tr></table><pre>a\n  b</pre>
<p>A <a href="/x">link</a> here</p><ul><li><a href="/y">Linked item</a></li></ul>`;
    const got = segmentHtml(html, { inline: true }).blocks.filter((b) => b.layout !== undefined);
    expect(got.map((b) => b.text)).toEqual(["Item", "Cell", "a b", "A link here", "Linked item"]);
    for (const b of got) expect(Object.keys(b.layout ?? {})).toEqual(["list", "cell", "pre", "inline"]);
    const [item, cell, pre, linked, linkedItem] = got.map((b) => b.layout);
    expect([item?.list?.marker, item?.cell, item?.pre, item?.inline]).toEqual(["-", undefined, undefined, undefined]);
    expect([cell?.list, cell?.cell?.column, cell?.pre]).toEqual([undefined, 0, undefined]);
    expect([pre?.list, pre?.cell, pre?.pre]).toEqual([undefined, undefined, "a\n  b"]);
    expect([linked?.list, linked?.cell, linked?.pre, linked?.inline?.[0]?.href]).toEqual([undefined, undefined, undefined, "/x"]);
    expect([linkedItem?.list?.marker, linkedItem?.inline?.[0]?.href]).toEqual(["-", "/y"]);
  });
});
