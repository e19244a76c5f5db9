/**
 * The filter configuration a command runs with, from --filters and --filter-config: what the named
 * filters stand for, with the file's thresholds and switches on top. A mistake in the file is a
 * usage error naming the file and the key (exit 2), like a mistake in a flag.
 */
import { readFile } from "node:fs/promises";
import { systemReason, UsageError } from "@winnow/errors";
import { type FilterConfig, FilterConfigError, parseFilterConfig, presetConfig } from "@winnow/filters";
import { isLanguageLabel, nearestLanguageLabels } from "@winnow/clean";

export interface FilterFlags {
  /** Names given to --filters (already checked). */
  filters?: string[];
  /** --filter-config FILE. */
  filterConfig?: string;
}

/** The configuration the flags ask for; undefined when they name no filter. */
export async function filterConfigOf(flags: FilterFlags): Promise<FilterConfig | undefined> {
  const path = flags.filterConfig;
  if (path === undefined) return flags.filters === undefined ? undefined : presetConfig(flags.filters);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new UsageError(`cannot read the filter config: ${systemReason(error)}`, path, { cause: error });
  }
  try {
    return parseFilterConfig(text, { filters: flags.filters, isLanguage: isLanguageLabel, nearestLanguages: nearestLanguageLabels });
  } catch (error) {
    if (error instanceof FilterConfigError) throw new UsageError(error.message, error.key === "" ? path : `${path}: ${error.key}`);
    throw error;
  }
}
