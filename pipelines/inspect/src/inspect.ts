/**
 * `winnow inspect` as a function: inputs and a model in, one self-contained HTML report out.
 * Problems a user can fix are thrown as typed errors (@winnow/errors), naming what is wrong and where.
 */
import { expandInputs } from "@winnow/archive";
import { InputError, ModelError, WinnowError, errorMessage } from "@winnow/errors";
import { type BlockClassifier, loadClassifier } from "@winnow/models";
import { type OutputRole, prepareOutput, refuseOutputsOverInputs, writeOutputFile } from "@winnow/writers";
import { buildReportData, type ReportData } from "./report-data.js";
import { renderReport } from "./report-html.js";

export interface InspectOptions {
  inputs: readonly string[];
  /** The report file to write; "-" for standard output. */
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

const REPORT_ROLE: OutputRole = { what: "report", flag: "-o", stdout: true };

export async function writeInspectReport(options: InspectOptions): Promise<InspectSummary> {
  // Before anything is read: the report is no input, and can be written (a file in the way is reported).
  const files = await expandInputs([...options.inputs]);
  await refuseOutputsOverInputs(
    [{ path: options.output, flag: "-o" }],
    [...options.inputs, ...files].map((path) => ({ path, flag: "input" })),
  );
  await prepareOutput(options.output, REPORT_ROLE);
  const classifier = await openClassifier(options.model);
  let data: ReportData;
  try {
    data = await buildReportData(options.inputs, { classifier, limit: options.limit, maxPageBytes: options.maxPageBytes });
  } finally {
    await classifier.close();
  }
  if (data.inputFiles === 0) throw new InputError("no archive or HTML files found", options.inputs.join(", "));
  const html = renderReport(data);
  await writeOutputFile(options.output, html, REPORT_ROLE);
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
