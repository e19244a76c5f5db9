// The same pages read under four time zones, each in a child process of node running the built
// collector (TZ is read once per process): the output must be the same bytes, and right.
// Run `npx tsc -b` first: the child imports dist/.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const PACKAGE = fileURLToPath(new URL("..", import.meta.url));

const PAGES = [
  // A prose date with a time and no zone: the day as written, never shifted.
  "<html><body><h1>T</h1><time>Mar 4, 2021 11:30 PM</time><p>Body text.</p></body></html>",
  // RFC 2822 without a time: the 4th under every zone (it was the 3rd west of UTC).
  '<html><head><meta name="date" content="Thu, 04 Mar 2021 GMT"></head><body><p>Body text.</p></body></html>',
  // A time with its offset: kept as written.
  '<html><head><meta property="article:published_time" content="2021-03-04T23:30:00-05:00"></head><body><p>x</p></body></html>',
  // Just after midnight UTC on the capture day, and a prose date just before it.
  '<html><body><div class="post-date">Published March 31, 2024 at 11:59 PM</div><p>x</p></body></html>',
];
const EXPECTED = ["2021-03-04", "2021-03-04", "2021-03-04T23:30:00-05:00", "2024-03-31"];

/**
 * Pages whose date chooseByMainText decides again, the first block after the headline kept: a
 * dateline with a time and no zone under the headline against the markup's UTC stamp of the next
 * day (the dateline's day: a zone's doing), and against a stamp with the page's own offset one
 * day off (the stamp's).
 */
const HEADLINE_PAGES = [
  '<html><head><meta property="article:published_time" content="2021-03-05T04:30:00Z"></head><body><h1>T</h1><p>Mar 4, 2021 11:30 PM</p><p>Body text.</p></body></html>',
  '<html><head><meta property="article:published_time" content="2021-03-05T00:30:00+01:00"></head><body><h1>T</h1><p>Mar 4, 2021 11:30 PM</p><p>Body text.</p></body></html>',
];
const HEADLINE_EXPECTED = ["2021-03-04", "2021-03-05T00:30:00+01:00"];

const SCRIPT = `
import { chooseByMainText, MetadataCollector } from "./dist/index.js";
import { segmentHtml } from "@winnow/segment";
const [pages, chosen] = JSON.parse(process.argv[1]);
const collector = new MetadataCollector();
const out = pages.map((html) => {
  const doc = segmentHtml(html, { observer: collector });
  if (!chosen) return collector.finish("https://example.org/story", Date.parse("2024-04-01T00:30:00Z"));
  const { metadata, shown } = collector.finishWithShown("https://example.org/story", Date.parse("2024-04-01T00:30:00Z"), doc.blocks, doc.title);
  return chooseByMainText(metadata, shown, [0, 2], doc.blocks.map((b) => b.text));
});
process.stdout.write(JSON.stringify(out));
`;

function runUnder(zone: string, pages = PAGES, chosen = false): string {
  return execFileSync(process.execPath, ["--input-type=module", "-e", SCRIPT, JSON.stringify([pages, chosen])], {
    cwd: PACKAGE,
    env: { ...process.env, TZ: zone },
    encoding: "utf8",
  });
}

describe("dates do not depend on the machine's time zone", () => {
  it("the same pages give the same bytes under UTC, New York, Tokyo and Kiritimati (UTC+14)", () => {
    const zones = ["UTC", "America/New_York", "Asia/Tokyo", "Pacific/Kiritimati"];
    const outputs = zones.map((zone) => runUnder(zone));
    for (const output of outputs.slice(1)) expect(output).toBe(outputs[0]);
    expect((JSON.parse(outputs[0]) as Array<{ date?: string }>).map((m) => m.date)).toEqual(EXPECTED);
  });

  it("the date chosen by the main text's head is the same bytes under the four zones too", () => {
    const zones = ["UTC", "America/New_York", "Asia/Tokyo", "Pacific/Kiritimati"];
    const outputs = zones.map((zone) => runUnder(zone, HEADLINE_PAGES, true));
    for (const output of outputs.slice(1)) expect(output).toBe(outputs[0]);
    expect((JSON.parse(outputs[0]) as Array<{ date?: string }>).map((m) => m.date)).toEqual(HEADLINE_EXPECTED);
  });
});
