/** The --filters flag of clean and stats: names checked as the flag is parsed. */
import { InvalidArgumentError } from "commander";
import { FILTER_NAMES, parseFilterNames } from "@winnow/filters";

/** "gopher,c4": checked names (the sets they stand for come with the filter config, filterConfigOf). */
export function parseFilters(value: string): string[] {
  const names = value.split(",").filter((n) => n.trim() !== "");
  try {
    parseFilterNames(names);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
  if (names.length === 0) throw new InvalidArgumentError(`expected filter names separated by commas: ${FILTER_NAMES.join(", ")}`);
  return names;
}
