#!/usr/bin/env node
/**
 * How often each value of the structure features (texrex37+ext+ctx+struct's last 13) fires on
 * the labelled sets, and how much of the text it fires on is main content by the alignment labels
 * training uses: a value that fires on blocks that are mostly boilerplate (or mostly content, as
 * captions are in newspaper3k) gives the model something the other 133 may not. Binary values
 * count where they are 1, the others where they exceed a cut.
 *
 *   npx turbo run build --filter=@winnow/features... && node experiments/structure-values.js
 *     [--data DIR] [--sets wcxb-dev,magic-html]
 */
import { join } from "node:path";
import { alignBlockLabels, loadLabelledPages } from "@winnow/evaluation";
import { TEXREX_CONTEXT, TEXREX_STRUCTURE } from "@winnow/features";
import { parseFlags } from "../benchmarks/lib/common.js";

const flags = parseFlags(process.argv.slice(2), []);
const data = flags.data ?? new URL("../../shared/data", import.meta.url).pathname;
const sets = (flags.sets ?? "wcxb-dev,magic-html").split(",");
/** Where a value that is not 0/1 counts as firing. */
const CUTS = { article_nesting: 0.5, shape_sections: Math.log1p(3) / Math.log1p(20), page_grid_share: 0.3, main_end_distance: 0.25 };

const names = TEXREX_STRUCTURE.specs.slice(TEXREX_CONTEXT.size).map((s) => s.name);
for (const set of sets) {
  const pages = await loadLabelledPages(join(data, set));
  const fired = names.map(() => ({ blocks: 0, chars: 0, content: 0, pages: new Set() }));
  let chars = 0,
    content = 0;
  for (const page of pages) {
    const blocks = page.doc.blocks;
    if (blocks.length === 0) continue;
    const rows = TEXREX_STRUCTURE.extract(page.doc);
    const { labels } = alignBlockLabels(
      blocks.map((b) => b.text),
      page.gold,
    );
    for (let b = 0; b < blocks.length; b++) {
      const n = blocks[b].textChars;
      chars += n;
      if (labels[b]) content += n;
      for (let k = 0; k < names.length; k++) {
        const v = rows[b * TEXREX_STRUCTURE.size + TEXREX_CONTEXT.size + k];
        if (v > (CUTS[names[k]] ?? 0.5)) {
          const f = fired[k];
          f.blocks++;
          f.chars += n;
          if (labels[b]) f.content += n;
          f.pages.add(page.id);
        }
      }
    }
  }
  console.log(`${set}: ${pages.length} pages, ${((content / chars) * 100).toFixed(1)}% of the text is content by alignment`);
  console.log(`  ${"value".padEnd(24)} ${"pages".padStart(6)} ${"blocks".padStart(7)} ${"text %".padStart(7)} ${"content %".padStart(9)}`);
  names.forEach((name, k) => {
    const f = fired[k];
    const share = f.chars === 0 ? "-" : ((f.content / f.chars) * 100).toFixed(1);
    console.log(
      `  ${name.padEnd(24)} ${String(f.pages.size).padStart(6)} ${String(f.blocks).padStart(7)} ${((f.chars / chars) * 100).toFixed(2).padStart(7)} ${share.padStart(9)}`,
    );
  });
}
