/**
 * The pages' CSS and client scripts are plain files in ../assets, inlined into each page so that
 * a report is one self-contained file. The path works from src/ (tests) and dist/ alike.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

const cache = new Map<string, string>();

export type AssetName = "report.css" | "report.js" | "label.css" | "label.js";

export function readAsset(name: AssetName): string {
  let text = cache.get(name);
  if (text === undefined) {
    text = readFileSync(new URL(`../assets/${name}`, import.meta.url), "utf8");
    // Inlined as is: text that could close its element would break the page.
    if (/<\/(script|style)/i.test(text) || text.includes("<!--"))
      throw new Error(`asset ${name} contains markup that would end its element early`);
    cache.set(name, text);
  }
  return text;
}

/** A Content-Security-Policy source for exactly this inline script: nothing else may run. */
export function scriptHash(script: string): string {
  return `'sha256-${createHash("sha256").update(script, "utf8").digest("base64")}'`;
}
