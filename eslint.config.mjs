import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

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
          ],
        },
      ],
    },
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
