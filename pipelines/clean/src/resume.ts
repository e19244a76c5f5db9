/**
 * What a resumable run has left to do, from its manifest: the inputs to read, the records to
 * pass over in each, and the part to write. The design is described in manifest.ts.
 */
import { stat } from "node:fs/promises";
import { basename, dirname, resolve, sep } from "node:path";
import { fsPath } from "@winnow/archive";
import { isRemote, redactUrl } from "@winnow/remote";
import type { Logger } from "pino";
import { checkParts, ManifestLog, partPath, readManifest, ResumeProblem, syncDirectory } from "./manifest.js";
import { differencesInWords, type OutputSettings, settingsDifferences } from "./output-settings.js";

export interface InputStamp {
  size: number;
  mtimeMs: number;
}

export interface ResumePlan {
  manifestPath: string;
  /** The part this run writes, and its file. */
  part: number;
  partPath: string;
  /** Inputs left to read, in the order given. */
  files: string[];
  /** For each of `files`: the records earlier runs handled, to pass over. */
  passOver: number[];
  /** For each of `files`: its size and mtime now, for the manifest. */
  stamps: InputStamp[];
  /** Inputs earlier runs read to the end. */
  inputsDone: number;
  /** What this run's part is made with, for its commit line. */
  settings: OutputSettings;
}

export async function planResume(
  output: string,
  manifestPath: string,
  inputs: readonly string[],
  settings: OutputSettings,
  logger: Logger,
): Promise<ResumePlan> {
  if (
    output === "-" ||
    output.endsWith("/") ||
    output.endsWith(sep) ||
    (await stat(output).then(
      (s) => s.isDirectory(),
      () => false,
    ))
  ) {
    throw new ResumeProblem("resuming needs an output file, as each run writes a part of its own");
  }
  if (inputs.includes("-")) throw new ResumeProblem("standard input cannot be resumed: what it gave cannot be read again");
  const state = await readManifest(manifestPath);
  if (state !== null) await checkParts(state, output);
  // The parts together are one output: a run resumed with another model or other filters would
  // add documents made another way, which nothing in the output tells apart.
  const differences = settingsDifferences(state?.parts.at(-1)?.settings, settings);
  if (differences.length > 0) {
    throw new ResumeProblem(
      `the earlier runs were made with other settings (${differencesInWords(differences)}): ` +
        "a resumed run must be given the same; --overwrite starts again with the new ones",
    );
  }

  const plan: ResumePlan = {
    manifestPath,
    part: state?.nextPart ?? 1,
    partPath: "",
    files: [],
    passOver: [],
    stamps: [],
    inputsDone: 0,
    settings,
  };
  plan.partPath = partPath(output, plan.part);
  const seen = new Set<string>();
  for (const file of inputs) {
    const path = manifestKey(file);
    // The manifest knows inputs by path, so one given twice would be counted as one.
    if (seen.has(path)) {
      logger.warn({ input: file }, `input given twice; resumable runs read it once (${file})`);
      continue;
    }
    seen.add(path);
    const stamp = await stat(fsPath(file)).then(
      (s) => ({ size: s.size, mtimeMs: s.mtimeMs }),
      () => ({ size: -1, mtimeMs: -1 }),
    );
    const known = state?.inputs.get(path);
    const changed = known !== undefined && (known.size !== stamp.size || known.mtimeMs !== stamp.mtimeMs);
    if (known?.complete) {
      plan.inputsDone++;
      if (changed) logger.warn({ input: file }, `input changed since an earlier run read it; not read again (${file})`);
      continue;
    }
    if (changed && known.records > 0) {
      logger.warn(
        { input: file },
        `input changed since an earlier run read part of it; reading on after its first ${known.records} records (${file})`,
      );
    }
    plan.files.push(file);
    plan.passOver.push(known?.records ?? 0);
    plan.stamps.push(stamp);
  }
  // Inputs are known by absolute path: moved inputs would be read again, into a new part.
  if (state !== null && state.inputs.size > 0 && plan.inputsDone === 0 && plan.passOver.every((n) => n === 0)) {
    logger.warn(`none of the inputs is in the manifest; all are read again (were they moved?) (${manifestPath})`);
  }
  return plan;
}

/** How a run ended with one input: read to its end or not, records read past those passed over, documents written. */
export interface InputOutcome {
  complete: boolean;
  read: number;
  documents: number;
}

/** The manifest lines of one resumable run: one per input as it is done with, then the commit. */
export class ResumeLog {
  readonly #plan: ResumePlan;
  readonly #manifest: ManifestLog;
  readonly #part: string;

  private constructor(plan: ResumePlan, manifest: ManifestLog) {
    this.#plan = plan;
    this.#manifest = manifest;
    this.#part = basename(plan.partPath);
  }

  static async open(plan: ResumePlan): Promise<ResumeLog> {
    return new ResumeLog(plan, await ManifestLog.open(plan.manifestPath));
  }

  get manifestPath(): string {
    return this.#plan.manifestPath;
  }

  /** Records what became of input `index` of plan.files; nothing for one this run did not get into. */
  inputDone(index: number, outcome: InputOutcome): void {
    if (!outcome.complete && outcome.read === 0) return;
    const plan = this.#plan;
    void this.#manifest.append({
      type: "input",
      part: this.#part,
      path: manifestKey(plan.files[index]),
      ...plan.stamps[index],
      complete: outcome.complete,
      records: plan.passOver[index] + outcome.read,
      documents: outcome.documents,
    });
  }

  /**
   * Commits the part if the run closed it (renamed it into place), then closes the manifest;
   * throws the first manifest write failure. The rename is synced before the commit is
   * written, so the manifest never names a part that a crash could still take back.
   */
  async close(partClosed: boolean, documents = 0, interrupted = false): Promise<void> {
    if (partClosed) {
      const { partPath: path, part: number } = this.#plan;
      await syncDirectory(dirname(resolve(path)));
      const bytes = (await stat(path)).size;
      void this.#manifest.append({ type: "part", part: this.#part, number, bytes, documents, interrupted, settings: this.#plan.settings });
    }
    await this.#manifest.close();
  }
}

/**
 * How the manifest knows an input: a file by its absolute path, a URL as given less its secrets
 * (a presigned URL signed again for a later run is the same input).
 */
function manifestKey(input: string): string {
  return isRemote(input) ? redactUrl(input) : resolve(input);
}
