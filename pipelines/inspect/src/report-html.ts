/**
 * The inspection report as one HTML file: the data as JSON in a script element, and a small
 * inline script that renders it with textContent. Page text never becomes markup, and the
 * Content-Security-Policy lets only that one script run and nothing be fetched.
 */
import { readAsset, scriptHash } from "./assets.js";
import { jsonForScript } from "./json-script.js";
import type { ReportData } from "./report-data.js";

export function renderReport(data: ReportData): string {
  const script = readAsset("report.js");
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src ${scriptHash(script)}; img-src data:`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>winnow inspect</title>
<style>${readAsset("report.css")}</style>
</head>
<body>
<header id="summary"><h1>winnow inspect</h1><p id="run"></p><p id="limited" hidden></p></header>
<div id="layout">
<nav id="documents" aria-label="documents"><input id="find" type="search" placeholder="filter documents" aria-label="filter documents"><ol id="document-list"></ol></nav>
<main id="document" aria-live="polite"><noscript>This report needs JavaScript to show its documents.</noscript></main>
</div>
<script type="application/json" id="winnow-data">${jsonForScript(data)}</script>
<script>${script}</script>
</body>
</html>
`;
}
