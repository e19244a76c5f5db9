// Public API of @winnow/cli: the `winnow` command, runnable in-process (tests, embedding).
export { createProgram, runCli } from "./program.js";
