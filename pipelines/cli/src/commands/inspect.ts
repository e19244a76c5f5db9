/**
 * `winnow inspect`: flags in, writeInspectReport, a one-line report and an exit status out.
 * The report is built in @winnow/inspect; this file only translates.
 */
import { type Command, Option } from "commander";
import { DEFAULT_MAX_PAGE_BYTES } from "@winnow/archive";
import { UsageError } from "@winnow/errors";
import { DEFAULT_REPORT_LIMIT, writeInspectReport } from "@winnow/inspect";
import { resolveModelSpec } from "@winnow/models";
import { createLogger, LOG_LEVELS, type LogLevel } from "../logger.js";
import { parseByteSize, parseCount } from "../parse.js";

interface InspectFlags {
  output: string;
  model?: string;
  limit: number;
  sample?: number;
  seed: number;
  maxPageBytes: number;
  logLevel: LogLevel;
}

export function registerInspect(program: Command): void {
  program
    .command("inspect")
    .summary("write an HTML report of which blocks winnow keeps and drops, and why")
    .description(
      "Read WARC/ARC archives and HTML files like winnow clean, score every block of each page, and write one " +
        "self-contained HTML file (no network needed) showing each page's blocks in order: kept ones as content, " +
        "dropped ones as boilerplate, each with its score and features.",
    )
    .argument("<input...>", "WARC/ARC files, HTML files, or directories of them (searched recursively)")
    .requiredOption(
      "-o, --output <file>",
      'the HTML report to write, or "-" for standard output (missing folders are created; written under a temporary name, then renamed; not an input: exit 2)',
    )
    .option(
      "--model <model>",
      '"heuristic", "mlp" or "bilstm" (the shipped models), or a model file made by winnow train (default: the shipped default model)',
    )
    .option(
      "--limit <n>",
      "most documents in the report, the first ones read; the report says when the inputs held more (the report is written as it goes, so memory does not grow with it)",
      parseCount(1),
      DEFAULT_REPORT_LIMIT,
    )
    .addOption(
      new Option(
        "--sample <n>",
        "instead of the first --limit documents, a random sample of N HTML records drawn from all of the inputs (each record has the same chance; all inputs are read), shown in reading order",
      )
        .argParser(parseCount(1))
        .conflicts("limit"),
    )
    .option("--seed <n>", "the seed of --sample's draw: the same seed draws the same sample", parseCount(0), 1)
    .addOption(
      new Option("--max-page-bytes <n>", "skip pages whose payload is larger than this (suffixes K, M, G)")
        .argParser(parseByteSize)
        .default(DEFAULT_MAX_PAGE_BYTES, `${DEFAULT_MAX_PAGE_BYTES >> 20}M`),
    )
    .addOption(new Option("--log-level <level>", "how much to log on stderr").choices(LOG_LEVELS).default("info"))
    .action((inputs: string[], flags: InspectFlags) => inspect(inputs, flags));
}

async function inspect(inputs: string[], flags: InspectFlags): Promise<void> {
  const logger = createLogger(flags.logLevel);
  if (inputs.includes("-")) throw new UsageError("inspect reads files, not standard input", "-");
  const s = await writeInspectReport({
    inputs,
    output: flags.output,
    model: resolveModelSpec(flags.model, (warning) => logger.warn(warning)),
    limit: flags.limit,
    sample: flags.sample,
    seed: flags.seed,
    maxPageBytes: flags.maxPageBytes,
  });
  const skipped = Object.entries(s.skipped).map(([reason, n]) => `${n} ${reason}`);
  const limited = s.limited ? ` (limited to the first ${s.limit}; --limit shows more)` : "";
  const sampled = s.sample === undefined ? "" : ` (a sample of ${s.sample.size} of ${s.sample.of} HTML records, seed ${s.sample.seed})`;
  logger.info(
    { summary: s },
    `wrote ${s.output}: ${s.documents} document${s.documents === 1 ? "" : "s"}${limited}${sampled} from ${s.inputFiles} input file${s.inputFiles === 1 ? "" : "s"}, ` +
      `${(s.bytesWritten / 1e6).toFixed(1)} MB, model ${s.model}${skipped.length > 0 ? `; skipped ${skipped.join(", ")}` : ""}`,
  );
}
