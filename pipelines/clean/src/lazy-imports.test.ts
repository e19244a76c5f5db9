// What a run loads where: the main thread of a run on a pool never cleans a page, a pool thread
// never reads an archive, and a thread cleaning with the default options uses neither the filters
// nor the dedup keys, so none loads those packages (each costs tens of milliseconds of CPU a
// thread, every run).
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const INDEX = new URL("../dist/index.js", import.meta.url).href;
const STEPS = new URL("../dist/steps.js", import.meta.url).href;
const WORKER = new URL("../dist/worker.js", import.meta.url).href;

// A module loader hook that names every module loaded on stderr.
const HOOKS = `export async function load(url, context, next) {
  process.stderr.write("LOADED " + url + "\\n");
  return next(url, context);
}`;

/**
 * What a fresh `node` prints on stderr running `script` (an ES module's text) with the hook: a
 * "LOADED url" line per module, and what the script itself writes there.
 */
function stderrOf(script: string): string[] {
  const withHook = `import { register } from "node:module";
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)});
${script}`;
  const child = spawnSync(process.execPath, ["--input-type=module", "-e", withHook], { encoding: "utf8" });
  if (child.status !== 0) throw new Error(`the child failed (${child.status}): ${child.stderr}`);
  return child.stderr.split("\n");
}

/** The URLs of the modules loaded, from stderrOf's lines. */
const loadedIn = (lines: string[]): string[] => lines.filter((l) => l.startsWith("LOADED ")).map((l) => l.slice("LOADED ".length));

const CLEANING = /\/packages\/(features|segment|metadata|models\/dist\/(index|classifier|spec))\b|onnxruntime-node|fasttext\.wasm/;
const loads = (urls: string[], pattern: RegExp): string[] => urls.filter((url) => pattern.test(url));

describe("lazy imports", () => {
  it("the package's index (what the CLI and a pool's main thread load) loads no classifier, segmenter or language model", () => {
    const urls = loadedIn(
      stderrOf(`const clean = await import(${JSON.stringify(INDEX)});
if (!clean.isLanguageLabel("en") || clean.UNDETERMINED !== "und") process.exit(3);`),
    );
    // The run itself is there (so the hook saw the imports), and the model is resolved by name.
    expect(loads(urls, /\/pipelines\/clean\/dist\/run\.js$/)).toHaveLength(1);
    expect(loads(urls, /\/packages\/models\/dist\/model-names\.js$/)).toHaveLength(1);
    expect(loads(urls, CLEANING)).toEqual([]);
    expect(loads(urls, /\/packages\/(filters|dedup)\/|\/piscina\//)).toEqual([]);
  });

  it("a pool thread's module decodes pages without loading the archive's readers or zstd's native binding", () => {
    const urls = loadedIn(
      stderrOf(`const worker = await import(${JSON.stringify(WORKER)});
if (typeof worker.default !== "function") process.exit(3);`),
    );
    // What it does use of the archive package is there (so the hook saw the imports).
    expect(loads(urls, /\/packages\/archive\/dist\/(pages|charset)\.js$/)).toHaveLength(2);
    expect(loads(urls, /\/packages\/archive\/dist\/(index|read|reader|warc|arc|gunzip|zstd)\.js$|zstd-napi/)).toEqual([]);
  });

  it("the default corpus steps (language ID) load neither the filters nor the dedup keys; asking for them loads them", () => {
    const open = (options: string) => `const { DocumentSteps } = await import(${JSON.stringify(STEPS)});
const steps = await DocumentSteps.open(${options});
console.error("STEPS " + steps.steps.map((s) => s.name).join(","));`;
    const plainLines = stderrOf(open(`{ langId: true, filters: [], stats: false, keepFiltered: false }`));
    expect(plainLines).toContain("STEPS language");
    const plain = loadedIn(plainLines);
    expect(loads(plain, /fasttext\.wasm/).length).toBeGreaterThan(0);
    expect(loads(plain, /\/packages\/(filters|dedup)\//)).toEqual([]);

    const allLines = stderrOf(open(`{ langId: false, filters: ["gopher"], stats: false, keepFiltered: false, pii: true, dedup: "exact" }`));
    expect(allLines).toContain("STEPS filters,pii,dedup");
    const all = loadedIn(allLines);
    expect(loads(all, /\/packages\/filters\/dist\/index\.js$/)).toHaveLength(1);
    expect(loads(all, /\/packages\/dedup\/dist\/index\.js$/)).toHaveLength(1);
    expect(loads(all, /fasttext\.wasm/)).toEqual([]);
  });
});
