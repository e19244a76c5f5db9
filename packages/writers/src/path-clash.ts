/**
 * No output of a run may be one of its inputs, nor another of its outputs. Every command checks
 * its paths here before it reads or writes anything, and checks again each path it only learns
 * later (an `{lang}` output's files, as documents reach them).
 *
 * Paths are compared by the file they end at (path-identity.ts): links, `..`, hard links and the
 * file behind standard output. A templated output (`out/{lang}/part.jsonl`) is checked up front
 * against every path it could expand to, and each expansion again when it is created, since a
 * link inside the tree can only be seen then.
 */
import { realpath } from "node:fs/promises";
import { basename, dirname, join, resolve, sep } from "node:path";
import { UsageError } from "@winnow/errors";
import { type FileIdentity, identityOf, STAT_CONCURRENCY, sameFile, wouldBeCreatedAt } from "./path-identity.js";

/** A path the command line names, and how to name it in a message: "-o", "--data ws". */
export interface NamedPath {
  path: string;
  flag: string;
}

/** An output claimed by a run: what it is now (or null: not there yet) and where it would be created. */
interface Claim {
  output: NamedPath;
  id: FileIdentity | null;
  /** The path it is written at, links followed: what two outputs not there yet are compared by. */
  at: string;
  /** A folder the run writes into as a whole (a text output's documents): no other output may be inside. */
  folder: boolean;
}

interface Template {
  output: NamedPath;
  /** Every path the template can expand to, links in its fixed folders followed. */
  pattern: RegExp;
}

/** `{field}` in an output path. */
const FIELD = /\{[^{}]*\}/g;
/** What a field's value may be in a path (templated.ts renders nothing else). */
const VALUE = "[A-Za-z0-9_-]+";

/** The outputs of one run, checked against its inputs and each other as they are claimed. */
export class RunPaths {
  readonly #inputs: readonly NamedPath[];
  #inputIds: Promise<Array<{ input: NamedPath; id: FileIdentity }>> | null = null;
  readonly #claims: Claim[] = [];
  readonly #templates: Template[] = [];

  /** `inputs`: the paths given, the files found in input folders, and the folders themselves ("-" is standard input). */
  constructor(inputs: readonly NamedPath[]) {
    this.#inputs = inputs;
  }

  /**
   * Claims `output` for this run. Throws a UsageError naming both paths when it is an input, an
   * output claimed before, inside a folder claimed whole, or a path a claimed template expands to.
   * Devices (`/dev/null`, a terminal) are never a clash: writing into one replaces nothing.
   * `folder`: the output is a folder the run writes as a whole.
   */
  async claim(output: NamedPath, options: { folder?: boolean } = {}): Promise<void> {
    await this.#claim(output, options.folder === true, null);
  }

  /**
   * Claims a templated output (`out/{lang}/part.jsonl`): refused when any path it could expand to
   * is an input or another output. Each file it opens is claimed by claimExpansion.
   */
  async claimTemplate(output: NamedPath): Promise<void> {
    const pattern = await templatePattern(output.path);
    const template: Template = { output, pattern };
    for (const claim of this.#claims) {
      if (pattern.test(claim.id?.real ?? claim.at)) throw outputsClash(claim.output, output);
    }
    for (const { input, id } of await this.#identifiedInputs()) {
      if (pattern.test(id.real)) throw overInput(output, input);
    }
    this.#templates.push(template);
  }

  /** Claims `path`, one file of the templated output `template`, as it is about to be created. */
  async claimExpansion(template: NamedPath, path: string): Promise<void> {
    const owner = this.#templates.find((t) => t.output.path === template.path && t.output.flag === template.flag) ?? null;
    await this.#claim({ path, flag: template.flag }, false, owner);
  }

  async #claim(output: NamedPath, folder: boolean, ownTemplate: Template | null): Promise<void> {
    const id = await identityOf(output.path, 1);
    if (id?.kind === "device") return;
    const at = output.path === "-" ? (id?.real ?? "-") : await wouldBeCreatedAt(output.path);
    const claim: Claim = { output, id, at, folder };
    for (const other of this.#claims) {
      if (clash(claim, other)) throw outputsClash(other.output, output);
    }
    for (const template of this.#templates) {
      if (template !== ownTemplate && template.pattern.test(id?.real ?? at)) throw outputsClash(template.output, output);
    }
    if (id !== null) {
      for (const { input, id: inputId } of await this.#identifiedInputs()) {
        if (sameFile(id, inputId)) throw overInput(output, input);
        // A folder written as a whole may hold no input: its files are replaced or removed.
        if (folder && inputId.real.startsWith(id.real + sep)) throw overInput(output, input);
      }
    }
    this.#claims.push(claim);
  }

  /** The inputs that are there, statted once, the first time an output might be one. */
  #identifiedInputs(): Promise<Array<{ input: NamedPath; id: FileIdentity }>> {
    this.#inputIds ??= (async () => {
      const found: Array<{ input: NamedPath; id: FileIdentity }> = [];
      for (let from = 0; from < this.#inputs.length; from += STAT_CONCURRENCY) {
        const batch = this.#inputs.slice(from, from + STAT_CONCURRENCY);
        const ids = await Promise.all(batch.map((input) => identityOf(input.path, 0)));
        ids.forEach((id, i) => {
          if (id !== null) found.push({ input: batch[i], id });
        });
      }
      return found;
    })();
    return this.#inputIds;
  }
}

/** Two claims on one file, or one inside the other's folder. */
function clash(a: Claim, b: Claim): boolean {
  if (a.id !== null && b.id !== null && sameFile(a.id, b.id)) return true;
  const pathA = a.id?.real ?? a.at;
  const pathB = b.id?.real ?? b.at;
  if (pathA === pathB) return true;
  return (a.folder && pathB.startsWith(pathA + sep)) || (b.folder && pathA.startsWith(pathB + sep));
}

/**
 * The paths `template` can expand to, as a regular expression over real paths: the folders
 * before its first field are resolved (links followed) as far as they exist.
 */
async function templatePattern(template: string): Promise<RegExp> {
  const absolute = resolve(template);
  const fieldAt = absolute.search(FIELD);
  const fixed = fieldAt < 0 ? absolute : dirname(absolute.slice(0, fieldAt + 1));
  const rest = absolute.slice(fixed.length);
  const realFixed = await realpathAsFarAsItExists(fixed);
  const quote = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const body = rest.split(FIELD).map(quote).join(VALUE);
  return new RegExp(`^${quote(realFixed)}${body}$`);
}

async function realpathAsFarAsItExists(path: string): Promise<string> {
  const real = await realpath(path).catch(() => null);
  if (real !== null) return real;
  const parent = dirname(path);
  if (parent === path) return path;
  return join(await realpathAsFarAsItExists(parent), basename(path));
}

function overInput(output: NamedPath, input: NamedPath): UsageError {
  return new UsageError(`${output.flag} ${output.path} is also an input (${input.flag} ${input.path}): writing it would destroy the input`);
}

function outputsClash(first: NamedPath, second: NamedPath): UsageError {
  const name = (p: NamedPath): string => `${p.flag} ${p.path === "-" ? "- (standard output)" : p.path}`;
  return new UsageError(`${name(second)} is the same file as ${name(first)}: one output would overwrite the other`);
}

/**
 * Throws a UsageError naming both when an output is also an input (the same real path, or the
 * same device and inode: hard links, bind mounts, the file behind standard output), or when two
 * outputs are one file. `inputs` holds the files given, the files found in input folders, and
 * the folders themselves. Inputs are only statted when some output already exists.
 */
export async function refuseOutputsOverInputs(outputs: readonly NamedPath[], inputs: readonly NamedPath[]): Promise<void> {
  const paths = new RunPaths(inputs);
  for (const output of outputs) await paths.claim(output);
}
