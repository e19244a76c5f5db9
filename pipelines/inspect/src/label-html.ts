/**
 * The labelling page served at `/`: markup, inline CSS and the client script, with no page data
 * in it (the script fetches that from the API and shows it with textContent). The policy lets
 * only this script run and lets it talk only to the server it came from.
 */
import { readAsset, scriptHash } from "./assets.js";

export interface LabelPageHtml {
  html: string;
  /** Sent as the Content-Security-Policy header. */
  csp: string;
}

export function renderLabelPage(): LabelPageHtml {
  const script = readAsset("label.js");
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src ${scriptHash(script)}; connect-src 'self'; img-src data:; form-action 'none'; frame-ancestors 'none'`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>winnow label-ui</title>
<style>${readAsset("label.css")}</style>
</head>
<body>
<header id="bar">
<h1>winnow label-ui</h1>
<span id="status" role="status">loading…</span>
<span class="tools">
<button type="button" id="mark-content" title="label the selected blocks as content (c)">content <kbd>c</kbd></button>
<button type="button" id="mark-boilerplate" title="label the selected blocks as boilerplate (b)">boilerplate <kbd>b</kbd></button>
<button type="button" id="mark-comment" title="label the selected blocks as a user comment (m)">comment <kbd>m</kbd></button>
<button type="button" id="toggle" title="toggle the selected blocks (space)">toggle <kbd>space</kbd></button>
<button type="button" id="save" title="save this page's labels (s)">save <kbd>s</kbd></button>
</span>
<p id="help">click a block to toggle it (content or boilerplate) · <kbd>m</kbd> marks the selection as a user comment (a reply, not the article, form or counter) · shift-click selects a run of blocks · <kbd>j</kbd>/<kbd>k</kbd> next/previous block (with shift: extend the selection) · <kbd>n</kbd>/<kbd>p</kbd> next/previous page (saves first)</p>
</header>
<div id="layout">
<nav id="pages" aria-label="pages"><p id="model"></p><ol id="page-list"></ol></nav>
<main id="page" aria-live="polite"><noscript>The labelling page needs JavaScript.</noscript></main>
</div>
<script>${script}</script>
</body>
</html>
`;
  return { html, csp };
}
