/**
 * Per-host models: a folder made by `winnow train --per-host`, holding a general model, one model
 * per host that had enough training pages, and `models.json` saying which file serves which host:
 *
 *   { "general": "general.onnx", "hosts": { "example.com": "example.com.onnx", … } }
 *
 * When cleaning, each page is scored by its host's model (host from the record's URL), and by the
 * general one when its host has none or it has no URL (plain HTML files). Host models are loaded
 * on first use, so a thread holds only the models of the hosts it has seen.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ModelError } from "@winnow/errors";
import type { SegmentedDocument } from "@winnow/segment";
import type { BlockClassifier } from "./classifier.js";

export const MODEL_INDEX = "models.json";

export interface ModelIndex {
  general: string;
  hosts: Record<string, string>;
}

/** A file name for a host's model: the host itself where safe (it nearly always is). */
export function hostModelFile(host: string): string {
  return `${host.replace(/[^a-z0-9.-]/g, "_")}.onnx`;
}

export function isModelDirectory(spec: string): boolean {
  return existsSync(join(spec, MODEL_INDEX)) && statSync(spec).isDirectory();
}

/** Reads and checks `models.json`; file names in it are relative to the folder. */
export function readModelIndex(dir: string): ModelIndex {
  const path = join(dir, MODEL_INDEX);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new ModelError(`cannot read the model index: ${(error as Error).message}`, path);
  }
  const v = value as Partial<ModelIndex>;
  const hosts = v.hosts;
  if (
    typeof v.general !== "string" ||
    typeof hosts !== "object" ||
    hosts === null ||
    Object.values(hosts).some((f) => typeof f !== "string")
  ) {
    throw new ModelError(`the model index must be {"general": file, "hosts": {host: file}}`, path);
  }
  for (const file of [v.general, ...Object.values(hosts)]) {
    if (!existsSync(join(dir, file))) throw new ModelError(`the model index names ${file}, which is not in the folder`, path);
  }
  return { general: v.general, hosts };
}

/**
 * A classifier over a model folder. As a BlockClassifier it is the general model; the pipeline
 * routes pages by host through `forHost`.
 */
export class HostRoutedClassifier implements BlockClassifier {
  readonly #loaded = new Map<string, Promise<BlockClassifier>>();

  private constructor(
    readonly name: string,
    private readonly dir: string,
    private readonly index: ModelIndex,
    private readonly general: BlockClassifier,
    private readonly load: (path: string) => Promise<BlockClassifier>,
  ) {}

  /** Loads the general model now, so an unusable folder is refused before any page is read. */
  static async open(dir: string, load: (path: string) => Promise<BlockClassifier>): Promise<HostRoutedClassifier> {
    const index = readModelIndex(dir);
    const general = await load(join(dir, index.general));
    return new HostRoutedClassifier(dir, dir, index, general, load);
  }

  get threshold(): number {
    return this.general.threshold;
  }

  get info() {
    return this.general.info;
  }

  hasModelFor(host: string): boolean {
    return host !== "" && Object.hasOwn(this.index.hosts, host);
  }

  score(docs: readonly SegmentedDocument[]): Promise<Float32Array[]> {
    return this.general.score(docs);
  }

  /** The model of a page's host, loaded on first use; the general model when the host has none. */
  forHost(host: string): Promise<BlockClassifier> {
    if (!this.hasModelFor(host)) return Promise.resolve(this.general);
    const file = this.index.hosts[host];
    let loaded = this.#loaded.get(file);
    if (loaded === undefined) {
      loaded = this.load(join(this.dir, file));
      this.#loaded.set(file, loaded);
    }
    return loaded;
  }

  async close(): Promise<void> {
    const loaded = await Promise.allSettled(this.#loaded.values());
    await Promise.all([this.general.close(), ...loaded.map((l) => (l.status === "fulfilled" ? l.value.close() : undefined))]);
  }
}
