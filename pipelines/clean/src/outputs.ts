// The files a run writes: the corpus (in the format its name implies) and the rejects log.
import { stat } from "node:fs/promises";
import { sep } from "node:path";
import { UsageError, WinnowError } from "@winnow/errors";
import { type CorpusWriter, type OutputFormat, openWriter, withoutCompressionSuffix, writeFailure } from "@winnow/writers";
import { RejectLog } from "./rejects.js";

/**
 * The format an output name implies: .parquet → parquet, .jsonl → jsonl, .xml → xml, .md or
 * .markdown → markdown, .txt or a directory → text (each also with .gz or .zst); standard output,
 * a device or a FIFO → jsonl. Null for any other name (see refuseUnnamedFormat).
 */
export async function outputFormatFor(output: string): Promise<OutputFormat | null> {
  const name = withoutCompressionSuffix(output.toLowerCase());
  if (name.endsWith(".parquet")) return "parquet";
  if (name.endsWith(".xml")) return "xml";
  if (name.endsWith(".md") || name.endsWith(".markdown")) return "markdown";
  if (name.endsWith(".txt") || output.endsWith("/") || output.endsWith(sep)) return "text";
  if (name.endsWith(".jsonl") || output === "-") return "jsonl";
  const found = await stat(output).catch(() => null);
  if (found?.isDirectory()) return "text";
  if (found !== null && !found.isFile()) return "jsonl";
  return null;
}

/** A name that says nothing (out.json, out.dat) must not quietly become JSONL. */
export function refuseUnnamedFormat(format: OutputFormat | null, output: string): OutputFormat {
  if (format !== null) return format;
  throw new UsageError(
    "the output name does not say its format: name it .jsonl, .xml, .txt, .md or .parquet (each text format also with .gz or .zst), or give --format",
    `-o ${output}`,
  );
}

export interface RunOutputs {
  writer: CorpusWriter;
  rejects: RejectLog | null;
}

/**
 * "-" for --rejects is standard output, except where it cannot be: beside `-o -` (documents and
 * reject lines would be mixed into one stream), and in a resumable run (split into parts).
 */
export function refuseRejectsOnStdout(output: string, rejectsPath: string | undefined, resume: boolean): void {
  if (rejectsPath !== "-") return;
  if (output === "-") throw new UsageError("-o and --rejects cannot both be standard output: their lines would be mixed", "--rejects -");
  if (resume) throw new UsageError("a resumable run writes --rejects in parts, so it cannot be standard output", "--rejects -");
}

/** Opens the corpus writer and the rejects log; on failure nothing stays open (and nothing is replaced). */
export async function openOutputs(
  output: string,
  rejectsPath: string | undefined,
  format: OutputFormat,
  options: {
    rejectsAll?: boolean;
    overwrite?: boolean;
    markdown?: boolean;
    links?: boolean;
    /** Checks each file of a templated output before it is created (RunPaths.claimExpansion). */
    claimExpansion?: (path: string) => Promise<void>;
  } = {},
): Promise<RunOutputs> {
  let writer: CorpusWriter;
  try {
    writer = await openWriter({
      format,
      path: output,
      claimExpansion: options.claimExpansion,
      overwrite: options.overwrite,
      markdown: options.markdown === true,
      links: options.links === true,
    });
  } catch (error) {
    if (error instanceof WinnowError) throw error;
    throw writeFailure("cannot create output", output, error);
  }
  if (rejectsPath === undefined) return { writer, rejects: null };
  try {
    return { writer, rejects: await RejectLog.open(rejectsPath, options.rejectsAll) };
  } catch (error) {
    await writer.discard();
    if (error instanceof WinnowError) throw error;
    throw writeFailure("cannot create rejects file", rejectsPath, error);
  }
}

/** Drops both files: nothing is renamed into place, so what was at their names before stays. */
export async function discardOutputs({ writer, rejects }: RunOutputs): Promise<void> {
  await Promise.allSettled([writer.discard(), rejects?.discard()]);
}

/**
 * Finishes both files; a write error seen during the run, or one now, is thrown. The rejects file
 * is put in place only once the output is: a run that fails replaces neither.
 */
export async function closeOutputs(
  { writer, rejects }: RunOutputs,
  paths: { output: string; rejects: string | undefined },
  writeError: unknown,
): Promise<void> {
  let outputProblem = writeError;
  if (outputProblem === null) {
    await writer.close().catch((error: unknown) => (outputProblem = error));
  } else {
    await writer.discard().catch(() => {});
  }
  if (outputProblem !== null) {
    await rejects?.discard();
    // A refusal (an {lang} file that would be an input) keeps its own words and status.
    if (outputProblem instanceof WinnowError) throw outputProblem;
    throw writeFailure("cannot write output", paths.output, outputProblem);
  }
  let rejectsProblem: unknown = null;
  await rejects?.close().catch((error: unknown) => (rejectsProblem = error));
  if (rejectsProblem !== null) throw writeFailure("cannot write rejects file", String(paths.rejects), rejectsProblem);
}
