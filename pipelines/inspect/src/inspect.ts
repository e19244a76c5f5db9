/**
 * `winnow inspect` as a function: inputs and a model in, one self-contained HTML report out.
 * Problems a user can fix are thrown as typed errors (@winnow/errors), naming what is wrong and where.
 */
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { InputError, ModelError, OutputError, WinnowError, errorMessage, systemReason } from "@winnow/errors";
import { type BlockClassifier, loadClassifier } from "@winnow/models";
import { buildReportData, type ReportData } from "./report-data.js";
import { renderReport } from "./report-html.js";

export interface InspectOptions {
  inputs: readonly string[];
  /** The report file to write. */
  output: string;
  /** What --model names (resolve the default with resolveModelSpec first). */
  model: string;
  limit?: number;
  maxPageBytes?: number;
}

export interface InspectSummary {
  output: string;
  model: string;
  documents: number;
  limited: boolean;
  limit: number;
  recordsRead: number;
  skipped: Record<string, number>;
  bytesWritten: number;
}

export async function writeInspectReport(options: InspectOptions): Promise<InspectSummary> {
  const classifier = await openClassifier(options.model);
  let data: ReportData;
  try {
    data = await buildReportData(options.inputs, { classifier, limit: options.limit, maxPageBytes: options.maxPageBytes });
  } finally {
    await classifier.close();
  }
  if (data.inputFiles === 0) throw new InputError("no archive or HTML files found", options.inputs.join(", "));
  const html = renderReport(data);
  await writeAtomically(options.output, html);
  return {
    output: options.output,
    model: data.model,
    documents: data.documents.length,
    limited: data.limited,
    limit: data.limit,
    recordsRead: data.recordsRead,
    skipped: data.skipped,
    bytesWritten: Buffer.byteLength(html),
  };
}

export async function openClassifier(model: string): Promise<BlockClassifier> {
  try {
    return await loadClassifier(model);
  } catch (error) {
    if (error instanceof WinnowError) throw error;
    throw new ModelError(`cannot load model: ${errorMessage(error)}`, model, { cause: error });
  }
}

/** Under a temporary name, then renamed: a reader never sees half a report. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.tmp-${process.pid}`;
  try {
    // As for every file winnow writes: missing folders are created (a file in the way is
    // reported by the write below, with its path).
    await mkdir(dirname(path), { recursive: true }).catch(() => {});
    await writeFile(temporary, text);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    throw new OutputError(`cannot write the report: ${systemReason(error)}`, path, { cause: error });
  }
}
