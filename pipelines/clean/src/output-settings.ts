/**
 * What the outputs of a per-input run were made with, written into each done marker. A task run
 * again passes over the outputs marked done and writes the rest; run again with other settings
 * (another model, filters, --comments), it would leave one corpus of two makings that nothing
 * tells apart. So a task refuses, before it cleans anything, when an output of its share is
 * marked done with other settings. Only what changes the documents counts: not the workers, the
 * batch size, the order of the documents (--unordered), retries, logs or the rejects folder.
 */
import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative } from "node:path";
import { builtinModelPath, type ModelSpec } from "@winnow/models/model-names";
import type { Compression, OutputFormat } from "@winnow/writers";
import type { CorpusOptions } from "./steps.js";
import type { SiteTemplateRunOptions } from "./site-templates.js";

/** What a run is given that changes its documents (a run's own options carry these and more). */
export interface OutputSettingsSource {
  format: OutputFormat;
  compression: Compression | null;
  favor?: string;
  comments?: boolean;
  links?: boolean;
  markdown?: boolean;
  metadata?: boolean;
  maxPageBytes?: number;
  corpus?: CorpusOptions;
  siteTemplates?: SiteTemplateRunOptions;
}

/** The settings a done marker records, as JSON values (undefined: the default). */
export interface OutputSettings extends OutputSettingsSource {
  /** "heuristic", or the model's file (or per-host folder) by content: the same model wherever it lies. */
  model: string;
}

/** The settings of a run over `model` (resolved: a name or a path); only those fields of `options` are read. */
export async function outputSettings(options: OutputSettingsSource, model: ModelSpec): Promise<OutputSettings> {
  const { format, compression, favor, comments, links, markdown, metadata, maxPageBytes, corpus, siteTemplates } = options;
  return {
    format,
    compression,
    model: await modelIdentity(model),
    favor,
    comments,
    links,
    markdown,
    metadata,
    maxPageBytes,
    corpus,
    siteTemplates,
  };
}

/** "heuristic", or "sha256:<hex>" of the model's bytes (a folder's: each file's name and bytes, in name order). */
async function modelIdentity(model: ModelSpec): Promise<string> {
  if (model === "heuristic") return model;
  const path = builtinModelPath(model) ?? model;
  const hash = createHash("sha256");
  const info = await stat(path).catch(() => null);
  // A model that cannot be read is reported by the cleaner with its own message; here it is its name.
  if (info === null) return model;
  if (info.isDirectory()) {
    const files = (await readdir(path, { recursive: true })).sort();
    for (const file of files) {
      const full = join(path, file);
      if (!(await stat(full)).isFile()) continue;
      hash
        .update(relative(path, full))
        .update("\0")
        .update(await readFile(full))
        .update("\0");
    }
  } else {
    hash.update(await readFile(path));
  }
  return `sha256:${hash.digest("hex")}`;
}

/**
 * What differs between the settings a marker recorded and this run's, each as
 * "key: before → now" (a key inside corpus or siteTemplates as "corpus.filters"); [] when they
 * agree or the marker recorded none (one written before markers held settings: nothing to compare).
 */
export function settingsDifferences(recorded: unknown, now: OutputSettings): string[] {
  if (recorded === null || typeof recorded !== "object" || Array.isArray(recorded)) return [];
  // Through JSON, as the marker was written: undefined keys drop out on both sides.
  const current = JSON.parse(JSON.stringify(now)) as Record<string, unknown>;
  return differences(recorded as Record<string, unknown>, current, "", 0);
}

/** Differences as a message names them: the first four, then how many more. */
export function differencesInWords(found: readonly string[]): string {
  return found.slice(0, 4).join("; ") + (found.length > 4 ? `; ${found.length - 4} more` : "");
}

function differences(before: Record<string, unknown>, now: Record<string, unknown>, prefix: string, depth: number): string[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(now)])].sort();
  const found: string[] = [];
  for (const key of keys) {
    const [a, b] = [before[key], now[key]];
    if (canonical(a) === canonical(b)) continue;
    // One level into the groups (corpus, siteTemplates), so a message names the setting, not the group.
    if (depth === 0 && isRecord(a) && isRecord(b)) found.push(...differences(a, b, `${key}.`, 1));
    else found.push(`${prefix}${key}: ${shown(a)} → ${shown(b)}`);
  }
  return found;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A value as a message shows it: JSON, cut after 80 characters (a filter configuration is long). */
function shown(value: unknown): string {
  if (value === undefined) return "default";
  const json = JSON.stringify(value);
  return json.length <= 80 ? json : `${json.slice(0, 77)}…`;
}

/** JSON with object keys in order, so that two equal settings compare equal however they were built. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}
