/**
 * `winnow label`: block labels for every page from a few seeds, by label propagation over each
 * page's block graph, written as one label file per page for `winnow train --labels`.
 */
import type { Command } from "commander";
import { featureSetByName, TEXREX_EXTENDED } from "@winnow/features";
import { OutputError, WinnowError, systemReason } from "@winnow/errors";
import { buildDataset, propagateDatasetLabels, writePropagatedLabels } from "@winnow/train";
import { lockOutputs, refuseOutputsOverInputs } from "@winnow/writers";
import { createLogger } from "../logger.js";
import { parseCount } from "../parse.js";
import { SEEDS_HELP, checkFolderOutput, dataInputs, featureSetOption, labelFolderInputs, loadPages, seedSource } from "./shared.js";

interface LabelFlags {
  data: string[];
  output: string;
  seeds: string;
  seed: number;
  featureSet: string;
  limit?: number;
}

const KERNEL_HELP = `
How labels spread (Zhu, Ghahramani and Lafferty 2003, harmonic functions):
  Each page is a graph of its blocks. Every block is linked to its 10 nearest neighbours in
  feature space with weight exp(-||xi - xj||^2 / s2), s2 being the page's median squared
  neighbour distance, and to the blocks before and after it with an extra 0.5. Seeded blocks
  keep their label; every other block takes the weighted mean of its neighbours (Gauss-Seidel
  to a change below 1e-4) and is content when that is above 0.5. Pages with no seed get no file.`;

export function registerLabel(program: Command): void {
  const command = program
    .command("label")
    .summary("label every block of your pages from a few seed labels (label propagation)")
    .description(
      "Build each page's block graph, take seed labels from --seeds, propagate them to the other blocks, and write " +
        'one label file per page (source "propagated"; hand labels keep their value) for winnow train --labels. ' +
        "When the pages have gold text, the labels are also checked against the alignment labels.",
    )
    .requiredOption(
      "--data <path...>",
      "pages: a folder in the WCXB layout, a JSONL file of {url, html, text}, or what clean reads: .html and .html.gz files, WARC/ARC archives, or a folder of them (ids: an HTML file's relative path, a record's WARC-Record-ID)",
    )
    .requiredOption(
      "-o, --output <dir>",
      "the folder to write the *.labels.json files into (created if missing; not the --data folder nor the hand labels' folder: exit 2)",
    )
    .requiredOption("--seeds <source>", SEEDS_HELP)
    .option("--seed <n>", "random seed of reveal:F", parseCount(0), 1)
    .option("--limit <n>", "use only the first N pages", parseCount(1))
    .addHelpText("after", KERNEL_HELP);
  // Propagation's features: the set it was tuned on, whatever the shipped models read.
  featureSetOption(command, TEXREX_EXTENDED.name);
  command.action((flags: LabelFlags) => label(flags));
}

async function label(flags: LabelFlags): Promise<void> {
  const logger = createLogger("info");
  // Before anything is read: the label folder can be written, and is neither the data nor the hand labels.
  const inputs = await dataInputs(flags.data);
  const hand = /^hand:(.+)$/.exec(flags.seeds)?.[1];
  if (hand !== undefined) inputs.push(...(await labelFolderInputs(hand, "--seeds hand:")));
  await refuseOutputsOverInputs([{ path: flags.output, flag: "-o" }], inputs);
  await checkFolderOutput(flags.output, { what: "label folder", flag: "-o" });
  // Held until the process exits (lock.ts releases it then, on every way out): one run per output.
  await lockOutputs([{ path: flags.output, what: "label folder" }], "label");
  const source = await seedSource(flags.seeds, flags.seed);
  const pages = await loadPages(flags.data, flags.limit, logger);
  const started = Date.now();
  const data = buildDataset(pages, featureSetByName(flags.featureSet));
  const { labels, summary } = propagateDatasetLabels(data, source);
  let written: number;
  try {
    written = await writePropagatedLabels(flags.output, pages, labels);
  } catch (error) {
    if (error instanceof WinnowError) throw error;
    throw new OutputError(`cannot write label files: ${systemReason(error)}`, flags.output, { cause: error });
  }
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
  const lines = [
    `labelled ${summary.pagesLabelled} of ${summary.pages} pages (${summary.pages - summary.pagesLabelled} had no seed), ` +
      `${summary.blocks} blocks, ${summary.seeds} seeds (${pct(summary.seededFraction)} of the blocks); ` +
      `wrote ${written} label files to ${flags.output} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  ];
  if (summary.check) {
    const c = summary.check;
    lines.push(
      `against the alignment labels of ${c.pages} pages with gold text: accuracy ${pct(c.accuracy)} over all blocks, ` +
        (c.propagatedBlocks > 0 ? `${pct(c.propagatedAccuracy)} over the ${c.propagatedBlocks} blocks propagation labelled, ` : "") +
        `seeds ${pct(c.seedAccuracy)} right`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}
