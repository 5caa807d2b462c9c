import { defineConfig } from 'vitest/config';

// Unit tests sit beside the code they test; e2e tests have their own config (e2e/vitest.config.ts).
export default defineConfig({
  test: {
    include: ['src-main/**/*.test.ts', 'src-renderer/**/*.test.{ts,tsx}', 'native/**/*.test.ts', 'bench/gpu/**/*.test.ts'],
    exclude: ['native/.venv/**', 'node_modules/**'],
    testTimeout: 30_000,
    pool: 'forks',
    // Tests spawn the built CLI (out/cli/): build it from the current source first.
    globalSetup: ['src-main/testing/build-cli.setup.mjs'],
  },
});
