/**
 * `winnow label-ui`: loads the pages and the labels already saved, starts the local labelling
 * server, prints its address, and serves until SIGINT or SIGTERM. The server and the page are in
 * @winnow/inspect; this file only translates.
 */
import { type Command, Option } from "commander";
import { UsageError } from "@winnow/errors";
import { DEFAULT_LABEL_PORT, LabelServerError, LabelStore, loadLabelPages, openClassifier, startLabelServer } from "@winnow/inspect";
import { LabelFileError } from "@winnow/labels";
import { resolveModelSpec } from "@winnow/models";
import { lockOutputs, refuseOutputsOverInputs } from "@winnow/writers";
import { createLogger, LOG_LEVELS, type LogLevel } from "../logger.js";
import { parseCount } from "../parse.js";
import { checkFolderOutput, dataInputs } from "./shared.js";

interface LabelUiFlags {
  data: string[];
  labels: string;
  port: number;
  model?: string;
  limit?: number;
  logLevel: LogLevel;
}

export function registerLabelUi(program: Command): void {
  program
    .command("label-ui")
    .summary("label blocks as content or boilerplate by hand, in the browser")
    .description(
      "Serve a labelling page on 127.0.0.1: it shows each page's blocks with the model's labels, you correct them, " +
        "and each page's labels are saved (atomically) as one JSON file in --labels, the format winnow train --labels reads. " +
        "Saved labels are shown again when you come back.",
    )
    .requiredOption(
      "--data <path...>",
      "pages to label: a WCXB directory, a {url, html, text} JSONL file, HTML files, WARC/ARC files, or directories of them",
    )
    .requiredOption(
      "--labels <dir>",
      "directory of label files (created on first save; files already there are shown; not a --data folder: exit 2)",
    )
    .option("--port <n>", "port on 127.0.0.1; 0 picks a free one", parseCount(0), DEFAULT_LABEL_PORT)
    .option(
      "--model <model>",
      '"heuristic", "mlp" or "bilstm" (the shipped models), or a model file made by winnow train: its decisions are the pre-labels (default: the shipped default model)',
    )
    .option("--limit <n>", "label only the first N pages", parseCount(1))
    .addOption(new Option("--log-level <level>", "how much to log on stderr").choices(LOG_LEVELS).default("info"))
    .action((flags: LabelUiFlags) => labelUi(flags));
}

async function labelUi(flags: LabelUiFlags): Promise<void> {
  const logger = createLogger(flags.logLevel);
  if (flags.port > 65535) throw new UsageError("--port must be at most 65535", `--port ${flags.port}`);
  // The label folder is written as well as read: "-" is refused, and it may not be the data.
  const inputs = await dataInputs(flags.data);
  await refuseOutputsOverInputs([{ path: flags.labels, flag: "--labels" }], inputs);
  await checkFolderOutput(flags.labels, { what: "label folder", flag: "--labels" });
  // Held until the process exits (lock.ts releases it then, on every way out): one run per output.
  await lockOutputs([{ path: flags.labels, what: "label folder" }], "label-ui");
  let store: LabelStore;
  try {
    store = await LabelStore.open(flags.labels);
  } catch (error) {
    if (error instanceof LabelFileError) throw new UsageError(error.message, `--labels ${flags.labels}`, { cause: error });
    throw error;
  }
  const pages = await loadLabelPages(flags.data, { limit: flags.limit });
  const classifier = await openClassifier(resolveModelSpec(flags.model, (warning) => logger.warn(warning)));
  let server: Awaited<ReturnType<typeof startLabelServer>>;
  try {
    server = await startLabelServer({ pages, store, classifier, port: flags.port });
  } catch (error) {
    await classifier.close();
    if (error instanceof LabelServerError) throw new UsageError(error.message, `--port ${flags.port}`, { cause: error });
    throw error;
  }
  // The address on stdout, alone, so that scripts (and tests) can read it.
  process.stdout.write(`${server.url}\n`);
  logger.info(`labelling ${pages.length} pages at ${server.url}; saving to ${flags.labels}; stop with Ctrl-C`);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  await server.close();
  await classifier.close();
  logger.info("stopped; every saved page is on disk");
}
