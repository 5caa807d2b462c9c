import { defineConfig } from 'vitest/config';

// The GPU bench pack's test alone: it reads the archive `npm run bench:gpu:pack` writes (CI makes
// it first), so it stays out of the unit tests' config.
export default defineConfig({
  test: {
    include: ['bench/gpu-pack/**/*.test.ts'],
    testTimeout: 600_000,
    pool: 'forks',
  },
});
