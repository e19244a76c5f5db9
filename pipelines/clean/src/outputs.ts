// The files a run writes: the corpus (in the format its name implies) and the rejects log.
import { stat } from "node:fs/promises";
import { sep } from "node:path";
import { OutputError, systemReason } from "@winnow/errors";
import { type CorpusWriter, type OutputFormat, openWriter } from "@winnow/writers";
import { RejectLog } from "./rejects.js";

/**
 * The format an output name implies: .jsonl → jsonl, .xml → xml, .txt or a directory → text
 * (each also with .gz); anything else, and standard output, → jsonl.
 */
export async function outputFormatFor(output: string): Promise<OutputFormat> {
  const name = output.toLowerCase().replace(/\.gz$/, "");
  if (name.endsWith(".xml")) return "xml";
  if (name.endsWith(".txt") || output.endsWith("/") || output.endsWith(sep)) return "text";
  if (name.endsWith(".jsonl") || output === "-") return "jsonl";
  const isDirectory = await stat(output).then(
    (s) => s.isDirectory(),
    () => false,
  );
  return isDirectory ? "text" : "jsonl";
}

export interface RunOutputs {
  writer: CorpusWriter;
  rejects: RejectLog | null;
}

/** Opens the corpus writer and the rejects log; on failure nothing stays open. */
export async function openOutputs(output: string, rejectsPath: string | undefined, format: OutputFormat): Promise<RunOutputs> {
  let writer: CorpusWriter;
  try {
    writer = await openWriter({ format, path: output });
  } catch (error) {
    throw new OutputError(`cannot create output: ${writeReason(error)}`, output, { cause: error });
  }
  if (rejectsPath === undefined) return { writer, rejects: null };
  try {
    return { writer, rejects: await RejectLog.open(rejectsPath) };
  } catch (error) {
    await writer.abort();
    throw new OutputError(`cannot create rejects file: ${writeReason(error)}`, rejectsPath, { cause: error });
  }
}

/** Finishes both files; a write error seen during the run, or one now, is thrown. */
export async function closeOutputs(
  { writer, rejects }: RunOutputs,
  paths: { output: string; rejects: string | undefined },
  writeError: unknown,
): Promise<void> {
  let outputProblem = writeError;
  if (outputProblem === null) {
    await writer.close().catch((error: unknown) => (outputProblem = error));
  } else {
    // Keep what was written valid under the final name; the write error is what gets reported.
    await writer.abort().catch(() => {});
  }
  let rejectsProblem: unknown = null;
  await rejects?.close().catch((error: unknown) => (rejectsProblem = error));
  if (outputProblem !== null) {
    throw new OutputError(`cannot write output: ${writeReason(outputProblem)}`, paths.output, { cause: outputProblem });
  }
  if (rejectsProblem !== null) {
    throw new OutputError(`cannot write rejects file: ${writeReason(rejectsProblem)}`, String(paths.rejects), { cause: rejectsProblem });
  }
}

/** A write error in words; the writers prefix their own messages with the package name. */
function writeReason(error: unknown): string {
  return systemReason(error).replace(/^@winnow\/writers: /, "");
}
