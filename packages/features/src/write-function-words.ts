/**
 * Build step (the package's `build` script, after tsc): writes the function-word table built
 * from stopwords-iso to TABLE_FILE, which function-words.ts reads in every thread.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { buildFunctionWordTable, encodeFunctionWordTable, TABLE_FILE } from "./function-word-table.js";

const lists = createRequire(import.meta.url)("stopwords-iso") as Record<string, readonly string[]>;
const table = buildFunctionWordTable(lists);
const bytes = encodeFunctionWordTable(table);
mkdirSync(fileURLToPath(new URL(".", TABLE_FILE)), { recursive: true });
writeFileSync(TABLE_FILE, bytes);
console.log(`${fileURLToPath(TABLE_FILE)}: ${table.words.length} words of ${table.languages.length} languages, ${bytes.length} bytes`);
