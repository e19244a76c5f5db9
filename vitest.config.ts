import { defineConfig } from "vitest/config";

// Node 20.19+ lets require() load ES modules, and piscina's threads load their task module
// (dist/worker.js) with require() first. A thread terminated in the middle of that require()
// (a pool closed or destroyed while a thread is still starting) aborts the whole process:
// Node's ModuleWrap::InstantiateSync asks V8 IsGraphAsync of a module that termination left
// uninstantiated, and V8 fails with "FATAL ERROR: v8::Module::IsGraphAsync must be used on an
// instantiated module". That killed test forks now and then. Without require(esm), piscina's
// require() throws at once and it falls back to import(), whose path survives termination.
// Nothing in the suite needs require(esm) otherwise. Worker threads inherit the flag from the
// fork. The guard keeps Node versions without the flag working.
const noRequireEsm = process.allowedNodeEnvironmentFlags.has("--no-experimental-require-module")
  ? ["--no-experimental-require-module"]
  : [];

export default defineConfig({
  test: {
    include: ["packages/*/src/**/*.test.ts", "pipelines/*/src/**/*.test.ts", "benchmarks/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    execArgv: noRequireEsm,
  },
});
