import { defineConfig } from "vitest/config";

// One config for the whole tree: `vitest run` at the root runs every package's tests, and each
// package's `npm test` (through turbo) runs its own with `--root .`, where the first glob applies.
export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "packages/*/src/**/*.test.ts", "pipelines/*/src/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
