// winnow clean on a page whose structure hides and repeats text (issue 35), and --favor where a
// model has no operating points (build first: `npx tsc -b`).
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runWinnow, stderrMessages } from "../test/run-winnow.js";

const PAGE = fileURLToPath(new URL("../../../fixtures/page-structure/streamed-article.html", import.meta.url));
const SAMPLE_WARC = fileURLToPath(new URL("../../../fixtures/sample.warc.gz", import.meta.url));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-structure-cli-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("winnow clean on a streamed page with hidden and repeated text", () => {
  it("keeps the streamed article, once each, and none of the hidden text", async () => {
    const result = await runWinnow(["clean", PAGE, "-o", "page.txt", "--format", "text", "--workers", "1"], dir);
    expect(stderrMessages(result.stderr, 50)).toEqual([]);
    expect(result.code).toBe(0);
    const text = readFileSync(join(dir, "page.txt"), "utf8");
    // The article sits in <div hidden id="S:0">, swapped in by $RC: before issue 35 none of it came out.
    expect(text).toContain("Forty years ago the river otter had all but vanished from the Thames");
    expect(text).toContain("The trust now asks landowners to leave wide margins");
    // Shortcodes go, the text between them stays.
    expect(text).toContain("Today volunteers count otter spraints");
    expect(text).not.toContain("[vc_");
    // The caption stands twice on the page (a mobile copy and the figure): once in the text.
    expect(text.split("A young otter photographed at dawn").length - 1).toBe(1);
    // A short noscript banner, a closed modal, a closed dialog, screen-reader text.
    for (const hidden of ["enable JavaScript", "Subscribe to our newsletter", "Share this article", "assistive technology"])
      expect(text).not.toContain(hidden);
  });
});

describe("--favor without operating points", () => {
  it("is refused with exit 2 for the heuristic, and nothing is written", async () => {
    for (const model of ["heuristic"]) {
      const out = `favor-${model}.jsonl`;
      const result = await runWinnow(["clean", SAMPLE_WARC, "-o", out, "--model", model, "--favor", "precision", "--workers", "1"], dir);
      expect(result.code).toBe(2);
      const messages = stderrMessages(result.stderr, 50);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatch(/^winnow: --favor precision needs a model with operating points/);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect(existsSync(join(dir, out))).toBe(false);
    }
  });
});
