// Paths and pages shared by the inspect tests. Outside src/: test support, not part of the build.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const FIXTURES = fileURLToPath(new URL("../../../fixtures/", import.meta.url));
export const SAMPLE_WARC = join(FIXTURES, "sample.warc.gz");
export const WCXB_SAMPLE = join(FIXTURES, "wcxb-sample");

/** Text that would run script if it ever reached the page as markup; tests check it never does. */
export const SCRIPT_TEXT = "<script>window.__pwned = 'script'</script> is how a script element is written";
export const IMG_TEXT = `<img src="x" onerror="window.__pwned = 'img'"> is how an image with an error handler is written`;

/** An article page whose blocks hold markup as text (entity-escaped in the HTML, so the segmenter sees text). */
export const HOSTILE_HTML = `<!doctype html><html><head><title>Markup &lt;b&gt;as&lt;/b&gt; text</title></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a> <a href="/contact">Contact</a></nav>
<article>
<h1>Writing markup in prose</h1>
<p>${escapeHtml(SCRIPT_TEXT)} and this paragraph goes on for a while to look like the main content of the page.</p>
<p>${escapeHtml(IMG_TEXT)} and this paragraph, too, is long enough to be taken for a paragraph of an article.</p>
<p>A third paragraph of ordinary prose, with no markup in it at all, closes the article on this page.</p>
</article>
<footer>Copyright 2026 · <a href="/privacy">Privacy</a></footer>
</body></html>`;

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** A fresh directory with the hostile page as site/markup.html and a plain page as site/sub/plain.html. */
export function hostileSite(): string {
  const dir = mkdtempSync(join(tmpdir(), "winnow-inspect-"));
  mkdirSync(join(dir, "site", "sub"), { recursive: true });
  writeFileSync(join(dir, "site", "markup.html"), HOSTILE_HTML);
  writeFileSync(
    join(dir, "site", "sub", "plain.html"),
    "<html><head><title>Plain</title></head><body><h1>Plain page</h1><p>Nothing but a short paragraph of text here.</p></body></html>",
  );
  return join(dir, "site");
}
