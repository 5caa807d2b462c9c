import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Test doubles and fixtures (fake servers, benchmark harnesses, sample data) are for tests only.
const TESTING_ONLY = { group: ['**/testing/*', '**/testing/**'], message: 'src-main/testing/ holds test doubles and fixtures: production code must not import them.' };

export default tseslint.config(
  { ignores: ['out/**', 'node_modules/**', 'bench/results/**', 'native/**/*.py', 'native/.venv/**', 'resources/**', '**/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, 'react-hooks/incompatible-library': 'off' },
  },
  {
    // The renderer runs sandboxed: it must never reach Node. Enforced, not just promised.
    files: ['src-renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'fs', 'path', 'child_process', 'electron'], message: 'The renderer has no Node; go through the API contract.' },
            { group: ['**/src-main/store/**', '**/src-main/service/**', '**/src-main/engine/**', '**/src-main/host/**', '**/src-main/electron/**', '**/src-main/cli/**'], message: 'The renderer may import only pure modules (contract, trajectory model).' },
            TESTING_ONLY,
          ],
        },
      ],
    },
  },
  {
    // Test doubles and fixtures live in src-main/testing/; production code never imports
    // them. Tests, e2e, benchmarks, native scripts and the testing folder itself may.
    files: ['src-main/**/*.{ts,tsx,mjs}'],
    ignores: ['src-main/**/*.test.{ts,tsx}', 'src-main/testing/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [TESTING_ONLY] }] },
  },
  {
    files: ['**/*.{ts,tsx,mjs}'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.mjs', 'native/**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
);
