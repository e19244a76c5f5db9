/**
 * `winnow inspect` as a function: inputs and a model in, one self-contained HTML report out.
 * Problems a user can fix are thrown as InspectError, naming what is wrong and where.
 */
import { rename, rm, writeFile } from "node:fs/promises";
import { ArchiveOpenError } from "@winnow/archive";
import type { BlockClassifier } from "@winnow/models";
import { loadClassifier, modelProblem } from "@winnow/pipeline";
import { buildReportData, type ReportData } from "./report-data.js";
import { renderReport } from "./report-html.js";

export class InspectError extends Error {
  override name = "InspectError";
  constructor(
    /** input: nothing to read; model: unusable --model; output: the report cannot be written. */
    readonly kind: "input" | "model" | "output",
    message: string,
  ) {
    super(message);
  }
}

export interface InspectOptions {
  inputs: readonly string[];
  /** The report file to write. */
  output: string;
  /** "heuristic" or an MLP model file (resolve the default with resolveModel first). */
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
  } catch (error) {
    if (error instanceof ArchiveOpenError) {
      const reason = error.message.slice(`cannot open ${error.path}: `.length);
      throw new InspectError("input", `cannot open input: ${reason} (${error.path})`);
    }
    throw error;
  } finally {
    await classifier.close();
  }
  if (data.inputFiles === 0) throw new InspectError("input", `no archive or HTML files found (${options.inputs.join(", ")})`);
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
    throw new InspectError("model", `${modelProblem(model, error)} (${model})`);
  }
}

const WRITE_PROBLEMS: Record<string, string> = {
  ENOENT: "its directory does not exist",
  EACCES: "permission denied",
  EISDIR: "it is a directory",
  ENOSPC: "no space left on the device",
  EROFS: "read-only file system",
};

/** Under a temporary name, then renamed: a reader never sees half a report. */
async function writeAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.tmp-${process.pid}`;
  try {
    await writeFile(temporary, text);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    const code = (error as NodeJS.ErrnoException).code ?? "";
    throw new InspectError("output", `cannot write the report: ${WRITE_PROBLEMS[code] ?? (error as Error).message} (${path})`);
  }
}
