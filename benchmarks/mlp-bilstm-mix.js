#!/usr/bin/env node
/**
 * Does averaging the MLP ensemble's and the BiLSTM's block scores beat either? K-fold domain
 * cross-validation over the WCXB dev pages: per fold both are trained on the same pages, and the
 * held-out pages are scored by each and by the mean of the two, with the mean's threshold chosen
 * on the same validation pages as theirs. Prints one line per method (word F1, overall and per type).
 *
 *   node benchmarks/mlp-bilstm-mix.js [--folds 5] [--data ../shared/data/wcxb-dev]
 */
import { TEXREX_EXTENDED } from "@winnow/features";
import {
  buildDataset, crossValidate, fitBiLstm, fitMlp, loadLabelledPages, scoreBiLstmPages, scoreMlpPages, splitValidation, chooseThreshold,
} from "@winnow/pipeline";
import { DEFAULT_SOURCE, parseFlags } from "./lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
const folds = Number(flags.folds ?? 5);
const pages = await loadLabelledPages(flags.data ?? DEFAULT_SOURCE);
const data = buildDataset(pages, TEXREX_EXTENDED);
const mean = (a, b) => a.map((s, i) => s.map((v, j) => (v + b[i][j]) / 2));

// One training per fold and kind; the three reports reuse them.
const fitted = [];
const fitFold = (train, test, f) => {
  if (!fitted[f]) {
    const started = Date.now();
    const mlp = fitMlp(data, train);
    const bilstm = fitBiLstm(data, train);
    // The mix's threshold: chosen on the validation pages both fits held out (same split).
    const { validation } = splitValidation(data, train);
    const mixValidation = mean(scoreMlpPages(data, validation, mlp.members), scoreBiLstmPages(data, validation, bilstm.model));
    const mix = chooseThreshold(data, validation, mixValidation);
    const mlpTest = scoreMlpPages(data, test, mlp.members);
    const bilstmTest = scoreBiLstmPages(data, test, bilstm.model);
    fitted[f] = {
      mlp: { scores: mlpTest, threshold: mlp.threshold, validationF1: mlp.validationF1 },
      bilstm: { scores: bilstmTest, threshold: bilstm.threshold, validationF1: bilstm.validationF1 },
      mix: { scores: mean(mlpTest, bilstmTest), threshold: mix.threshold, validationF1: mix.f1 },
    };
    console.error(`fold ${f + 1}/${folds}: ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  return fitted[f];
};
for (const kind of ["mlp", "bilstm", "mix"]) {
  const report = crossValidate(data, folds, kind, (train, test, f) => fitFold(train, test, f)[kind]);
  const o = report.summary.overall;
  const types = Object.entries(report.summary.byType).map(([t, g]) => `${t} ${g.f1.toFixed(3)}`).join(", ");
  console.log(`${kind.padEnd(7)} P ${o.precision.toFixed(3)} R ${o.recall.toFixed(3)} F1 ${o.f1.toFixed(3)} | ${types} | thresholds ${report.thresholds.join(" ")}`);
}
