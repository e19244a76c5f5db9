/**
 * The corpus steps of the worker, after scoring: language identification, the quality filters,
 * PII masking. Each is a step of its own in a list that the run's options build (an empty list
 * when all are off), and every page a batch kept goes through the list in order:
 *
 *   cleanPages (decode, segment, score) -> [language] -> [filters] -> [pii] -> [dedup keys] -> the writer
 *
 * PII comes after the filters, so that their values are those of the text as cleaned (masking
 * changes lengths), and before the dedup keys, so that those hash the text as written, as a
 * later `winnow dedup` over the output reads it.
 *
 * A step records what it finds on the document (its language, the rules it failed, its
 * statistics). A document that failed a rule is dropped as a skip ("language" for --langs and
 * --min-lang-score, "filter" for the rule sets) naming the first rule failed and its value, or,
 * with keepFiltered, written with the rules it failed. The dedup step only hashes the document
 * (its signature is the costly part, so it is made on the worker); whether it duplicates an
 * earlier one is decided by the writer, in order (dedup.ts).
 */
import type { DocumentBlock } from "@winnow/writers";
// Types only: the filters and the dedup keys are loaded by DocumentSteps.open when a run asks for
// them, so that a thread cleaning with neither (the default) does not load those packages.
import type { DocumentFilter, DocumentStats, FilterConfig, maskPii, PiiCounts, RuleSetName } from "@winnow/filters";
import type { DedupKeyMaker, DedupKeys } from "@winnow/dedup";
import { LanguageIdentifier } from "@winnow/langid";
import { UNDETERMINED } from "./languages.js";
import type { PageOutput } from "./page.js";

/** What --lang-id, --langs, --min-lang-score, --filters, --stats and --keep-filtered ask for. */
export interface CorpusOptions {
  /** Identify each document's language (fastText lid.176). */
  langId: boolean;
  /** Keep only documents in these languages (lid.176 labels: "en", "de", "zh"); needs langId. */
  langs?: readonly string[];
  /** Keep only documents whose language score is at least this; needs langId. */
  minLangScore?: number;
  /** Rule sets that decide (@winnow/filters' parseFilterNames). */
  filters: readonly RuleSetName[];
  /** Their thresholds and switches (a preset or a --filter-config file); the published defaults when absent. */
  filterConfig?: Pick<FilterConfig, "settings" | "languages">;
  /** Mask e-mail addresses and public IP addresses in the text (--pii). */
  pii?: boolean;
  /** Write each document's statistics: counts and every rule set's values. */
  stats: boolean;
  /** Write documents that fail a rule, with the rules they failed, instead of dropping them. */
  keepFiltered: boolean;
  /** Drop documents whose text repeats an earlier one's: exactly, or also nearly (MinHash). */
  dedup?: "exact" | "minhash";
}

/** A rule a document failed; `reason` is the skip reason it is dropped under. */
export interface StepFailure {
  reason: "language" | "filter";
  rule: string;
  value: number | string;
}

/** A kept page on its way through the steps. */
export interface StepDocument {
  blocks: DocumentBlock[];
  lang?: string;
  langScore?: number;
  failures: StepFailure[];
  stats?: DocumentStats;
  pii?: PiiCounts;
  dedupKeys?: DedupKeys;
}

export interface DocumentStep {
  readonly name: string;
  run(doc: StepDocument): void;
}

/** Identifies the language, and judges --langs and --min-lang-score. */
export class LanguageStep implements DocumentStep {
  readonly name = "language";
  readonly #lid: LanguageIdentifier;
  readonly #langs: ReadonlySet<string> | null;
  readonly #minScore: number | undefined;

  constructor(lid: LanguageIdentifier, langs: readonly string[] | undefined, minScore: number | undefined) {
    this.#lid = lid;
    this.#langs = langs === undefined || langs.length === 0 ? null : new Set(langs);
    this.#minScore = minScore;
  }

  run(doc: StepDocument): void {
    // Only the start of the blocks' text is read (see @winnow/langid): identifyBlocks joins no more.
    const guess = this.#lid.identifyBlocks(doc.blocks);
    doc.lang = guess?.lang ?? UNDETERMINED;
    doc.langScore = guess?.score ?? 0;
    if (this.#langs !== null && !this.#langs.has(doc.lang))
      doc.failures.push({ reason: "language", rule: "language.langs", value: doc.lang });
    if (this.#minScore !== undefined && doc.langScore < this.#minScore) {
      doc.failures.push({ reason: "language", rule: "language.min_score", value: doc.langScore });
    }
  }
}

/** Measures the document and judges the chosen rule sets; C4's line rules edit its blocks. */
export class FilterStep implements DocumentStep {
  readonly name = "filters";
  readonly #filter: DocumentFilter;
  readonly #stats: boolean;

  /** `filter` judges the rule sets and measures (with `stats`, written on the document). */
  constructor(filter: DocumentFilter, stats: boolean) {
    this.#filter = filter;
    this.#stats = stats;
  }

  run(doc: StepDocument): void {
    const outcome = this.#filter.run(
      doc.blocks.map((b) => b.text),
      doc.lang,
    );
    if (outcome.kept !== null) {
      const before = doc.blocks;
      // C4's line rules judged each block as one line: the document is written as those lines,
      // without the table rows and code layout that would join or split them again.
      doc.blocks = outcome.kept.map((k, i) => ({ text: outcome.blocks[i], heading: before[k].heading, layout: undefined }));
    }
    for (const f of outcome.failures) doc.failures.push({ reason: "filter", rule: f.rule, value: f.value });
    if (this.#stats && outcome.stats !== null) doc.stats = outcome.stats;
  }
}

/**
 * Masks e-mail and public IP addresses in each block (its text, its preformatted form, its links'
 * targets) and counts them. A block's inline spans are moved to where their text now is.
 */
export class PiiStep implements DocumentStep {
  readonly name = "pii";
  readonly #mask: typeof maskPii;

  /** `mask` is @winnow/filters' maskPii. */
  constructor(mask: typeof maskPii) {
    this.#mask = mask;
  }

  run(doc: StepDocument): void {
    const counts: PiiCounts = { emails: 0, ips: 0 };
    doc.blocks = this.maskBlocks(doc.blocks, counts);
    doc.pii = counts;
  }

  /** `blocks` with their addresses masked (the same objects where there were none), adding to `counts`. */
  maskBlocks(blocks: DocumentBlock[], counts: PiiCounts): DocumentBlock[] {
    return blocks.map((block) => {
      const masked = this.#mask(block.text);
      const layout = block.layout;
      const pre = layout?.pre === undefined ? null : this.#mask(layout.pre);
      const hrefs = layout?.inline?.map((span) => (span.href === undefined ? null : this.#mask(span.href))) ?? [];
      if (
        masked.text === block.text &&
        (pre === null || pre.text === layout?.pre) &&
        hrefs.every((h) => h === null || h.counts.emails + h.counts.ips === 0)
      ) {
        return block;
      }
      // An address counts once, though a block's text and its preformatted form may both hold it.
      counts.emails += Math.max(masked.counts.emails, pre?.counts.emails ?? 0);
      counts.ips += Math.max(masked.counts.ips, pre?.counts.ips ?? 0);
      if (layout === undefined) return { ...block, text: masked.text };
      const inline = layout.inline?.map((span, i) => ({
        ...span,
        start: masked.mapOffset(span.start),
        end: masked.mapOffset(span.end),
        ...(hrefs[i] !== null && { href: hrefs[i]?.text }),
      }));
      return {
        ...block,
        text: masked.text,
        layout: { ...layout, ...(pre !== null && { pre: pre.text }), ...(inline !== undefined && { inline }) },
      };
    });
  }
}

/** Hashes the text as the writer will write it (blocks joined by a blank line) for the writer's dedup. */
export class DedupKeysStep implements DocumentStep {
  readonly name = "dedup";
  readonly #maker: DedupKeyMaker;

  constructor(maker: DedupKeyMaker) {
    this.#maker = maker;
  }

  run(doc: StepDocument): void {
    doc.dedupKeys = this.#maker.keys(doc.blocks.map((b) => b.text).join("\n\n"));
  }
}

/** The steps a run's options ask for, in order, and what to do with a document that fails. */
export class DocumentSteps {
  readonly steps: readonly DocumentStep[];
  readonly #keepFiltered: boolean;
  /** Whether any step judges documents (so that written ones carry filter_failed with --keep-filtered). */
  readonly #judges: boolean;

  constructor(steps: readonly DocumentStep[], options: Pick<CorpusOptions, "keepFiltered" | "langs" | "minLangScore" | "filters">) {
    this.steps = steps;
    this.#keepFiltered = options.keepFiltered;
    this.#judges = (options.langs?.length ?? 0) > 0 || options.minLangScore !== undefined || options.filters.length > 0;
  }

  /**
   * Loads what the steps need (the language model; the filters' and the dedup keys' packages,
   * about 50 ms of CPU per thread that the default run spares) and builds them; no steps when
   * all are off.
   */
  static async open(options: CorpusOptions | undefined): Promise<DocumentSteps> {
    if (options === undefined) return new DocumentSteps([], { keepFiltered: false, filters: [] });
    const steps: DocumentStep[] = [];
    if (options.langId) steps.push(new LanguageStep(await LanguageIdentifier.load(), options.langs, options.minLangScore));
    const measures = options.filters.length > 0 || options.stats;
    if (measures || options.pii === true) {
      const { DocumentFilter, maskPii } = await import("@winnow/filters");
      if (measures) {
        const filter = new DocumentFilter({ sets: options.filters, stats: options.stats, config: options.filterConfig });
        steps.push(new FilterStep(filter, options.stats));
      }
      if (options.pii === true) steps.push(new PiiStep(maskPii));
    }
    if (options.dedup !== undefined) {
      const { DedupKeyMaker } = await import("@winnow/dedup");
      steps.push(new DedupKeysStep(new DedupKeyMaker({ mode: options.dedup })));
    }
    return new DocumentSteps(steps, options);
  }

  /** Runs the steps over a batch's outputs, in place: failed documents become skips unless kept. */
  apply(outputs: PageOutput[]): PageOutput[] {
    if (this.steps.length === 0) return outputs;
    for (let i = 0; i < outputs.length; i++) {
      const out = outputs[i];
      if (!out.ok || out.blocks.length === 0) continue;
      const doc: StepDocument = { blocks: out.blocks, failures: [] };
      for (const step of this.steps) {
        step.run(doc);
        // A document that will be dropped needs no further measuring.
        if (doc.failures.length > 0 && !this.#keepFiltered) break;
      }
      if (doc.failures.length > 0 && !this.#keepFiltered) {
        const first = doc.failures[0];
        outputs[i] = { ok: false, reason: first.reason, detail: failureDetail(doc.failures), rule: first.rule, value: first.value };
        continue;
      }
      out.blocks = doc.blocks;
      if (doc.lang !== undefined) {
        out.lang = doc.lang;
        out.langScore = doc.langScore;
      }
      if (this.#keepFiltered && this.#judges) out.filterFailed = doc.failures.map((f) => ({ rule: f.rule, value: f.value }));
      if (doc.stats !== undefined) out.stats = doc.stats;
      if (doc.pii !== undefined) {
        // The comments the page keeps (--comments) are written too: masked the same way.
        const pii = this.steps.find((s): s is PiiStep => s instanceof PiiStep);
        if (pii !== undefined && out.comments !== undefined) out.comments = pii.maskBlocks(out.comments, doc.pii);
        out.pii = doc.pii;
      }
      if (doc.dedupKeys !== undefined) out.dedupKeys = doc.dedupKeys;
    }
    return outputs;
  }
}

/** "gopher_quality.stop_words = 1 (and 2 more rules)". */
function failureDetail(failures: readonly StepFailure[]): string {
  const first = failures[0];
  const more = failures.length > 1 ? ` (and ${failures.length - 1} more rule${failures.length > 2 ? "s" : ""})` : "";
  return `${first.rule} = ${first.value}${more}`;
}
