/**
 * `winnow label-ui`: loads the pages and the labels already saved, starts the local labelling
 * server, prints its address, and serves until SIGINT or SIGTERM. The server and the page are in
 * @winnow/inspect; this file only translates.
 */
import { type Command, Option } from "commander";
import { resolveModel } from "@winnow/pipeline";
import {
  DEFAULT_LABEL_PORT,
  InspectError,
  LabelDataError,
  LabelFileError,
  LabelServerError,
  LabelStore,
  loadLabelPages,
  openClassifier,
  startLabelServer,
} from "@winnow/inspect";
import { CliError } from "../errors.js";
import { EXIT } from "../exit-codes.js";
import { createLogger, LOG_LEVELS, type LogLevel } from "../logger.js";
import { parseCount } from "../parse.js";

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
    .requiredOption("--labels <dir>", "directory of label files (created on first save; files already there are shown)")
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
  if (flags.port > 65535) throw new CliError(EXIT.usage, [`--port must be at most 65535 (--port ${flags.port})`]);
  let store: LabelStore;
  try {
    store = await LabelStore.open(flags.labels);
  } catch (error) {
    if (error instanceof LabelFileError) throw new CliError(EXIT.usage, [`${error.message} (--labels ${flags.labels})`]);
    throw error;
  }
  let pages: Awaited<ReturnType<typeof loadLabelPages>>;
  try {
    pages = await loadLabelPages(flags.data, { limit: flags.limit });
  } catch (error) {
    if (error instanceof LabelDataError) throw new CliError(EXIT.noInput, [error.message]);
    throw error;
  }
  let classifier: Awaited<ReturnType<typeof openClassifier>>;
  try {
    classifier = await openClassifier(resolveModel(flags.model, logger));
  } catch (error) {
    if (error instanceof InspectError) throw new CliError(EXIT.usage, [error.message]);
    throw error;
  }
  let server: Awaited<ReturnType<typeof startLabelServer>>;
  try {
    server = await startLabelServer({ pages, store, classifier, port: flags.port });
  } catch (error) {
    await classifier.close();
    if (error instanceof LabelServerError) throw new CliError(EXIT.usage, [`${error.message} (--port ${flags.port})`]);
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
