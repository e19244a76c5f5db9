/**
 * `winnow inspect` as a function: inputs and a model in, one self-contained HTML report out.
 * Problems a user can fix are thrown as typed errors (@winnow/errors), naming what is wrong and where.
 */
import { expandInputs } from "@winnow/archive";
import { InputError, ModelError, WinnowError, errorMessage } from "@winnow/errors";
import { type BlockClassifier, loadClassifier } from "@winnow/models";
import { lockOutputs, type OutputRole, prepareOutput, refuseOutputsOverInputs } from "@winnow/writers";
import { scanReport } from "./report-data.js";
import { writeReport } from "./report-html.js";

export interface InspectOptions {
  inputs: readonly string[];
  /** The report file to write; "-" for standard output. */
  output: string;
  /** What --model names (resolve the default with resolveModelSpec first). */
  model: string;
  limit?: number;
  /** A seeded random sample of this many HTML records from all inputs, instead of the first `limit`. */
  sample?: number;
  /** Seed of the sample (default 1). */
  seed?: number;
  maxPageBytes?: number;
}

export interface InspectSummary {
  output: string;
  model: string;
  documents: number;
  limited: boolean;
  limit: number;
  /** Input files after folders were expanded. */
  inputFiles: number;
  recordsRead: number;
  /** With a sample: its size, out of how many HTML records, and the seed. */
  sample?: { size: number; of: number; seed: number };
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
  if (files.length === 0) throw new InputError("no archive or HTML files found", options.inputs.join(", "));
  // One run per report: a second one on the same file refuses (exit 75) instead of racing this one.
  const release = await lockOutputs([{ path: options.output, what: "report" }], "inspect");
  try {
    return await reportOn(options);
  } finally {
    await release();
  }
}

async function reportOn(options: InspectOptions): Promise<InspectSummary> {
  const classifier = await openClassifier(options.model);
  let written: Awaited<ReturnType<typeof writeReport>>;
  try {
    // Streamed: each document goes to the file once scored, so memory does not grow with --limit.
    written = await writeReport(options.output, REPORT_ROLE, (emit) =>
      scanReport(
        options.inputs,
        { classifier, limit: options.limit, sample: options.sample, seed: options.seed, maxPageBytes: options.maxPageBytes },
        emit,
      ),
    );
  } finally {
    await classifier.close();
  }
  const { meta } = written;
  return {
    output: options.output,
    model: meta.model,
    documents: written.documents,
    limited: meta.limited,
    limit: meta.limit,
    inputFiles: meta.inputFiles,
    recordsRead: meta.recordsRead,
    skipped: meta.skipped,
    bytesWritten: written.bytes,
    ...(meta.sample === undefined ? {} : { sample: meta.sample }),
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
