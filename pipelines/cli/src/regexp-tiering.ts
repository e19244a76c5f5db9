/**
 * How soon V8 compiles a regular expression to machine code, for the whole `winnow` process (its
 * pool threads share the setting). Imported first by main.ts, before any module of the run.
 *
 * By default V8 runs a regular expression's bytecode once and compiles it to machine code on its
 * second execution. chrono-node's date patterns (packages/metadata) are large alternations of
 * month names, weekdays and numbers: compiling one takes 10-130 ms (Italian's little-endian
 * pattern alone about 100), and a process that reads a date in prose compiles the patterns of
 * every language it tries, most of which run a handful of times in a whole run (CleanEval's
 * pages without a declared language send 13 strings through 8 European languages). Staying
 * interpreted for the first executions skips those compiles: CleanEval's 302 parses in a fresh
 * process took 400-540 ms of CPU with the default and 317-344 ms with 10 executions (seven
 * processes each). A pattern run more often is compiled as before after its tenth execution, and
 * V8 compiles at once one run over a long subject (1,000 characters or more), where its
 * interpreter would be slow. Results are the same either way: the interpreter and the compiled
 * code implement the same semantics; only when compiling happens changes.
 */
import { setFlagsFromString } from "node:v8";

/** Executions of a regular expression's bytecode before V8 compiles it (V8's default: 1). */
export const REGEXP_TIER_UP_TICKS = 10;

setFlagsFromString(`--regexp-tier-up-ticks=${REGEXP_TIER_UP_TICKS}`);
