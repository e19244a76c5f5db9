import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["packages/*/src/**/*.test.ts", "pipelines/*/src/**/*.test.ts", "benchmarks/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
