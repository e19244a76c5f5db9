/**
 * The inspection report as one HTML file: the data as JSON in a script element, and a small
 * inline script that renders it with textContent. Page text never becomes markup, and the
 * Content-Security-Policy lets only that one script run and nothing be fetched.
 *
 * The JSON is `{"documents":[...], ...the run's figures}`: the documents come first so that a
 * report can be written as they are scored (writeReport), and its size on disk, not in memory,
 * grows with --limit.
 */
import { once } from "node:events";
import { rename, unlink } from "node:fs/promises";
import { WinnowError } from "@winnow/errors";
import { type OpenedOutput, openOutput, type OutputRole, prepareOutput, writeFailure } from "@winnow/writers";
import { readAsset, scriptHash } from "./assets.js";
import { jsonForScript } from "./json-script.js";
import type { ReportData, ReportDocument, ReportMeta } from "./report-data.js";

/** Everything before the JSON data. */
function reportHead(script: string): string {
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
<script type="application/json" id="winnow-data">`;
}

function reportTail(script: string): string {
  return `</script>
<script>${script}</script>
</body>
</html>
`;
}

/** "…,"key":value…" of the run's figures, to close the JSON object after the documents. */
function metaMembers(meta: ReportMeta): string {
  const json = jsonForScript(meta);
  return json.length > 2 ? `,${json.slice(1, -1)}` : "";
}

export function renderReport(data: ReportData): string {
  const script = readAsset("report.js");
  const { documents, ...meta } = data;
  return `${reportHead(script)}{"documents":${jsonForScript(documents)}${metaMembers(meta)}}${reportTail(script)}`;
}

/**
 * Writes a report as its documents arrive: `produce` is given a function to hand each document
 * to (it waits while the file lags behind) and resolves with the run's figures. The file is
 * written under a temporary name and renamed when complete, like every output (output-path.ts);
 * on failure it is removed and nothing replaced. Resolves with the figures and the bytes written.
 */
export async function writeReport(
  output: string,
  role: OutputRole,
  produce: (emit: (doc: ReportDocument) => Promise<void>) => Promise<ReportMeta>,
): Promise<{ meta: ReportMeta; bytes: number; documents: number }> {
  const target = await prepareOutput(output, role);
  const opened: OpenedOutput = await openOutput(target, role);
  const { sink } = opened;
  let bytes = 0;
  let documents = 0;
  let failure: Error | null = null;
  const onError = (error: Error): void => {
    failure ??= error;
  };
  sink.on("error", onError);
  const put = async (text: string): Promise<void> => {
    if (failure !== null) throw failure;
    bytes += Buffer.byteLength(text);
    if (!sink.write(text)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          sink.off("drain", done).off("close", done);
          resolve();
        };
        sink.on("drain", done).on("close", done);
      });
    }
    if (failure !== null) throw failure;
  };
  const script = readAsset("report.js");
  try {
    await put(`${reportHead(script)}{"documents":[`);
    const meta = await produce(async (doc) => {
      await put(`${documents++ === 0 ? "" : ","}${jsonForScript(doc)}`);
    });
    await put(`]${metaMembers(meta)}}${reportTail(script)}`);
    if (opened.owned) {
      sink.end();
      await once(sink, "close");
    } else await new Promise<void>((resolve) => sink.write("", () => resolve()));
    if (failure !== null) throw failure;
    if (opened.tmpPath !== null && opened.finalPath !== null) await rename(opened.tmpPath, opened.finalPath);
    return { meta, bytes, documents };
  } catch (error) {
    if (opened.owned && !sink.destroyed) sink.destroy();
    if (opened.tmpPath !== null) await unlink(opened.tmpPath).catch(() => {});
    // Failures of the file itself (ENOSPC, EPIPE) say which file; the reading's own errors are typed already.
    throw error instanceof WinnowError || (error as NodeJS.ErrnoException)?.code === undefined
      ? error
      : writeFailure(`cannot write ${role.what}`, output, error);
  } finally {
    sink.off("error", onError);
  }
}
