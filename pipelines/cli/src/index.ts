export { createProgram, runCli } from "./program.js";
export { CliError } from "./errors.js";
export { EXIT, EXIT_CODES_HELP } from "./exit-codes.js";
export { createLogger, LOG_LEVELS, type LogLevel } from "./logger.js";
export { parseByteSize, parseCount } from "./parse.js";
