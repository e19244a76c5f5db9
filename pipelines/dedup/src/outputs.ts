/**
 * What a dedup run writes (each input's output in the -o folder, the rejects file, the state
 * folder), checked against what it reads before anything is written, by @winnow/writers'
 * RunPaths: by the file a path ends at (links, `..`, hard links), never by its name. runDedup
 * does it for every caller; the CLI calls checkedInputs itself so that it can refuse before it
 * takes its locks, and hands the result down, so the folders are walked once.
 */
import { join, resolve } from "node:path";
import { type NamedPath, RunPaths } from "@winnow/writers";
import { type InputListing, type ListedInput, listInputs } from "./inputs.js";

/** The paths of a run that the check needs: runDedup's options of the same names. */
export interface DedupPaths {
  inputs: readonly string[];
  output: string;
  /** Default <output>/.dedup. */
  state?: string;
  rejectsPath?: string;
}

/** A run's inputs, listed once, with its outputs checked against them: made by checkedInputs only. */
export interface CheckedInputs {
  readonly paths: Readonly<DedupPaths>;
  readonly listing: InputListing;
}

/** The state folder of a run, as given: --state, or <output>/.dedup. */
export function stateOf(paths: Pick<DedupPaths, "output" | "state">): string {
  return paths.state ?? join(paths.output, ".dedup");
}

/**
 * Lists the inputs and refuses (a UsageError naming both paths, exit 2) an output, rejects file
 * or state folder that is an input or holds one, or two outputs that are one file.
 */
export async function checkedInputs(paths: DedupPaths): Promise<CheckedInputs> {
  const state = stateOf(paths);
  const listing = await listInputs(paths.inputs, [resolve(paths.output), resolve(state)], true);
  // Every path in the input folders, corpus or not: none may be written over.
  await claimOutputs([...paths.inputs, ...listing.found], listing.inputs, paths);
  return { paths: { ...paths }, listing };
}

/** The same check for a run whose inputs come from its plan (none given on the command line). */
export async function refuseOutputsOverPlanInputs(inputs: readonly ListedInput[], paths: DedupPaths): Promise<void> {
  await claimOutputs(
    inputs.map((input) => input.path),
    inputs,
    paths,
  );
}

async function claimOutputs(read: readonly string[], inputs: readonly ListedInput[], paths: DedupPaths): Promise<void> {
  const run = new RunPaths(read.map((path): NamedPath => ({ path, flag: "input" })));
  // The state folder is dedup's own: nothing of the user's, inputs included, may be in it.
  await run.claim({ path: stateOf(paths), flag: "--state" }, { folder: true });
  await run.claim({ path: paths.output, flag: "-o" });
  // Each output as the run names it (an input reached twice is listed, and written, once).
  for (const input of inputs) await run.claim({ path: join(paths.output, input.name), flag: "-o" });
  if (paths.rejectsPath !== undefined) await run.claim({ path: paths.rejectsPath, flag: "--rejects" });
}
