// What a run loads where: the main thread of a run on a pool never cleans a page, a pool thread
// never reads an archive, a thread cleaning with the default options uses neither the filters
// nor the dedup keys, and a thread loading a model reads its metadata without protobufjs and
// without the trainers, so none loads those packages (each costs tens of milliseconds of CPU a
// thread, every run).
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

const INDEX = new URL("../dist/index.js", import.meta.url).href;
const INLINE = new URL("../dist/inline-cleaner.js", import.meta.url).href;
const PAGE = new URL("../../../fixtures/comments/forum-thread.html", import.meta.url);
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
// protobufjs and the ONNX schema (writing and fully decoding models), and the trainers.
const TRAINING =
  /\/node_modules\/protobufjs\/|\/packages\/models\/dist\/(index|onnx\/(graph|schema)|mlp\/\w+|bilstm\/(train|export|import))\.js$/;

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
    expect(loads(urls, TRAINING)).toEqual([]);
    expect(loads(urls, /\/packages\/models\/dist\/classifiers\.js$/)).toHaveLength(1);
  });

  for (const model of ["mlp", "bilstm"]) {
    it(`a thread cleaning with the ${model} (here --workers 0's) reads the model without protobufjs or the trainers`, () => {
      const lines = stderrOf(`const { readFileSync } = await import("node:fs");
const { openInline } = await import(${JSON.stringify(INLINE)});
const cleaner = await openInline({ model: ${JSON.stringify(model)} });
const body = readFileSync(new URL(${JSON.stringify(PAGE.href)}));
const [page] = await cleaner.clean([{ body, url: "https://forum.example/thread/1", date: "2026-01-01T00:00:00Z" }]);
await cleaner.close();
console.error("CLEANED " + cleaner.model + " " + (page.ok ? page.blocks.map((b) => b.text).join(" ") : page.reason));`);
      const cleaned = lines.find((l) => l.startsWith("CLEANED ")) ?? "";
      // The page was cleaned with the model (its first post kept), so the model's load was seen.
      expect(cleaned).toMatch(new RegExp(`^CLEANED ${model} .*\\S`));
      const urls = loadedIn(lines);
      expect(loads(urls, TRAINING)).toEqual([]);
      expect(loads(urls, /\/packages\/models\/dist\/onnx\/metadata-props\.js$/)).toHaveLength(1);
      expect(loads(urls, /onnxruntime-node/).length).toBeGreaterThan(0);
    });
  }

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
