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
import { type FileIdentity, identityOf, STAT_CONCURRENCY, wouldBeCreatedAt } from "./path-identity.js";

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

/** The keys a file is found by: its device and inode (when it is there), and its path. */
function keysOf(id: FileIdentity | null, at: string): string[] {
  return id === null ? [`path:${at}`] : [`file:${id.dev}:${id.ino}`, `path:${id.real}`];
}

/** Inputs and claims are looked up by key, so that checking n outputs against m inputs costs n + m, not n × m. */
interface Indexed<T> {
  byKey: Map<string, T>;
  all: T[];
}

/**
 * The outputs of one run, checked against its inputs and each other as they are claimed.
 * Lookups go by device and inode and by real path; a folder claimed whole is also compared by
 * prefix with what lies inside it.
 */
export class RunPaths {
  readonly #inputs: readonly NamedPath[];
  #inputIds: Promise<Indexed<{ input: NamedPath; id: FileIdentity }>> | null = null;
  readonly #claims: Indexed<Claim> = { byKey: new Map(), all: [] };
  readonly #folders: Claim[] = [];
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
    for (const claim of this.#claims.all) {
      if (pattern.test(claim.id?.real ?? claim.at)) throw outputsClash(claim.output, output);
    }
    for (const { input, id } of (await this.#identifiedInputs()).all) {
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
    const where = id?.real ?? at;
    const keys = keysOf(id, where);
    for (const key of keys) {
      const other = this.#claims.byKey.get(key);
      if (other !== undefined) throw outputsClash(other.output, output);
    }
    // Inside a folder claimed whole, or a folder holding an output claimed before.
    for (const other of this.#folders) {
      if (where.startsWith((other.id?.real ?? other.at) + sep)) throw outputsClash(other.output, output);
    }
    if (folder) {
      for (const other of this.#claims.all) {
        if ((other.id?.real ?? other.at).startsWith(where + sep)) throw outputsClash(other.output, output);
      }
    }
    for (const template of this.#templates) {
      if (template !== ownTemplate && template.pattern.test(where)) throw outputsClash(template.output, output);
    }
    if (id !== null) {
      const inputs = await this.#identifiedInputs();
      for (const key of keys) {
        const input = inputs.byKey.get(key);
        if (input !== undefined) throw overInput(output, input.input);
      }
      // A folder written as a whole may hold no input: its files are replaced or removed.
      if (folder) {
        const inside = inputs.all.find((input) => input.id.real.startsWith(id.real + sep));
        if (inside !== undefined) throw overInput(output, inside.input);
      }
    }
    this.#claims.all.push(claim);
    for (const key of keys) this.#claims.byKey.set(key, claim);
    if (folder) this.#folders.push(claim);
  }

  /** The inputs that are there, statted once, the first time an output might be one. */
  #identifiedInputs(): Promise<Indexed<{ input: NamedPath; id: FileIdentity }>> {
    this.#inputIds ??= (async () => {
      const found: Indexed<{ input: NamedPath; id: FileIdentity }> = { byKey: new Map(), all: [] };
      for (let from = 0; from < this.#inputs.length; from += STAT_CONCURRENCY) {
        const batch = this.#inputs.slice(from, from + STAT_CONCURRENCY);
        const ids = await Promise.all(batch.map((input) => identityOf(input.path, 0)));
        ids.forEach((id, i) => {
          if (id === null) return;
          const entry = { input: batch[i], id };
          found.all.push(entry);
          // The first input of a file names it in messages.
          for (const key of keysOf(id, id.real)) if (!found.byKey.has(key)) found.byKey.set(key, entry);
        });
      }
      return found;
    })();
    return this.#inputIds;
  }
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
