import { defineConfig } from "vitest/config";

// Checks of experiment data under training/ that no shipped model reads: `npm run test:training-data`.
export default defineConfig({
  test: {
    include: ["training/**/*.test.ts"],
    testTimeout: 20_000,
  },
});
