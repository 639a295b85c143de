import { configDefaults, defineConfig } from "vitest/config";

// The production-install test (the Dockerfile's `npm ci --omit=dev`, ~560 MB unpacked) takes both
// cores' I/O and CPU for half a minute or more: it runs after every other test, alone, so it
// neither starves them into timeouts nor is starved by them.
const ALONE = ["test/deploy/production-install.test.ts"];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    globalSetup: ["test/helpers/temp-root.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "tests",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...ALONE],
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: "alone", include: ALONE, sequence: { groupOrder: 1 } } },
    ],
  },
});
