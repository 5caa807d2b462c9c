import { defineConfig } from 'vitest/config';

// End-to-end tests drive the real UI: through `worldloom serve` in Debian's Chromium, and
// the real Electron app where an Electron binary exists.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // Tests spawn the built CLI (out/cli/): build it from the current source first.
    globalSetup: ['src-main/testing/build-cli.setup.mjs'],
    // Verbose, so a skipped test's name (which says why it was skipped) is printed.
    reporters: ['verbose'],
  },
});
