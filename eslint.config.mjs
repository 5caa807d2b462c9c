import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { dirname, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(fileURLToPath(import.meta.url));

/**
 * An allowlist, as VS Code's code-import-patterns: a file may import only modules inside
 * the named folders and the named packages; everything else fails lint. Relative imports
 * are resolved against the importing file, so depth does not matter.
 */
const allowedImports = {
  meta: {
    type: 'problem',
    schema: [{ type: 'object', properties: { folders: { type: 'array' }, packages: { type: 'array' }, forbiddenPackages: { type: 'array' }, why: { type: 'string' } } }],
  },
  create(context) {
    // Without `packages`, every package but the forbidden ones is allowed (the layers of src-main/).
    const { folders, packages, forbiddenPackages = [], why } = context.options[0];
    const check = (node, source) => {
      if (typeof source !== 'string') return;
      if (source.startsWith('.')) {
        const target = relative(ROOT, resolve(dirname(context.filename), source)).split(sep).join('/');
        if (folders.some((f) => target === f || target.startsWith(`${f}/`))) return;
        context.report({ node, message: `'${source}' (${target}) is outside ${folders.join(', ')}. ${why}` });
        return;
      }
      const parts = source.split('?')[0].split('/');
      const name = source.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
      if (packages && !packages.includes(name)) context.report({ node, message: `Package '${name}' is not on this folder's allowlist (${packages.join(', ')}). ${why}` });
      if (forbiddenPackages.includes(name)) context.report({ node, message: `Package '${name}' is not for this folder. ${why}` });
    };
    const fromSource = (node) => node.source && check(node, node.source.value);
    return {
      ImportDeclaration: fromSource,
      ExportNamedDeclaration: fromSource,
      ExportAllDeclaration: fromSource,
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
const worldloom = { rules: { 'allowed-imports': allowedImports } };

/** The renderer's packages: the UI libraries it bundles, nothing that needs Node. */
const RENDERER_PACKAGES = ['react', 'react-dom', 'zustand', 'zod', '@monaco-editor/react', 'monaco-editor', '@xterm/xterm', '@xterm/addon-fit', 'diff'];

/**
 * The layers of src-main/, lowest first: the one statement of the order (the map in docs/architecture.md
 * repeats it). A folder may import its own files and the folders of the layers below its own,
 * never a folder of its own layer or above, so the folders form no cycle. testing/ stands
 * outside the order (only tests import it). A new folder is refused until named here.
 */
export const LAYERS = [
  ['common'], // pure: the data model, the contract, prompt building; runs anywhere, the renderer included
  ['engine', 'store', 'prompt', 'parsing'], // the model engines, the workspace file, prompt templates on disk, shared readers
  ['dataset'], // building and writing datasets
  ['formats'], // one folder per format, registered once
  ['sessions'], // the sessions coding agents keep on disk, found where each format's folder says
  ['simulation'], // the one simulator and the settings in force
  ['reality', 'evaluation'], // real environments and replay; benchmarks and scores
  ['agents'], // policies and simulated environments for agents
  ['service'], // the Studio: the open workspace and the API contract's handlers
  ['host'], // the HTTP doors: the host, the OpenAI-compatible API, mcp-serve
  ['cli', 'electron'], // the processes that start a door
];

/** What a test of any layer may import besides its layers. */
const TEST_EXTRAS = ['src-main/testing', 'bench'];

/** The layer rules, one block per folder of LAYERS (common/ has its own, stricter, block below). */
const layerRules = LAYERS.flatMap((layer, index) => {
  const below = LAYERS.slice(0, index).flat();
  return layer
    .filter((folder) => folder !== 'common')
    .flatMap((folder) => {
      const folders = [folder, ...below].map((f) => `src-main/${f}`);
      const why = `src-main/${folder}/ may import only ${below.length ? `the layers below it (${below.join(', ')})` : 'itself'}: the order is LAYERS in eslint.config.mjs (the map in docs/architecture.md).`;
      // The core is plain Node: only the Electron door imports electron.
      const forbiddenPackages = folder === 'electron' ? [] : ['electron'];
      return [
        {
          files: [`src-main/${folder}/**/*.{ts,tsx,mjs}`],
          ignores: [`src-main/${folder}/**/*.test.{ts,tsx}`],
          plugins: { worldloom },
          rules: { 'worldloom/allowed-imports': ['error', { folders, forbiddenPackages, why }] },
        },
        {
          files: [`src-main/${folder}/**/*.test.{ts,tsx}`],
          plugins: { worldloom },
          // A test may also drive the code as a user does, through the Studio and the contract
          // (src-main/service/), and use the test doubles and fixture makers (testing/, bench/).
          rules: { 'worldloom/allowed-imports': ['error', { folders: [...folders, ...TEST_EXTRAS], forbiddenPackages, why: `${why} Its tests may also import ${TEST_EXTRAS.join(', ')}.` }] },
        },
      ];
    });
});

// Test doubles and fixtures (fake servers, benchmark harnesses, sample data) are for tests only.
const TESTING_ONLY = { group: ['**/testing/*', '**/testing/**'], message: 'src-main/testing/ holds test doubles and fixtures: production code must not import them.' };

export default tseslint.config(
  { ignores: ['out/**', 'release/**', 'node_modules/**', 'bench/results/**', 'native/**/*.py', 'native/.venv/**', 'resources/**', '**/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, 'react-hooks/incompatible-library': 'off' },
  },
  {
    // The renderer runs sandboxed: it may import only its own code, the pure code in
    // src-main/common/ and its UI packages. An allowlist: a new folder is refused until named.
    files: ['src-renderer/**/*.{ts,tsx}'],
    plugins: { worldloom },
    rules: {
      'worldloom/allowed-imports': [
        'error',
        { folders: ['src-renderer', 'src-main/common'], packages: RENDERER_PACKAGES, why: 'The renderer has no Node; reach the core through the API contract.' },
      ],
    },
  },
  {
    files: ['src-renderer/**/*.test.{ts,tsx}'],
    plugins: { worldloom },
    rules: {
      'worldloom/allowed-imports': ['error', { folders: ['src-renderer', 'src-main/common'], packages: [...RENDERER_PACKAGES, 'vitest'], why: 'Renderer tests test the renderer.' }],
    },
  },
  {
    // Pure code runs anywhere (renderer, core, CLI): it imports only pure code, zod and diff.
    files: ['src-main/common/**/*.ts'],
    ignores: ['src-main/common/**/*.test.ts'],
    plugins: { worldloom },
    rules: {
      'worldloom/allowed-imports': ['error', { folders: ['src-main/common'], packages: ['zod', 'diff'], why: 'src-main/common/ is pure: no Node, no DOM, nothing outside it but zod and jsdiff (both pure).' }],
    },
  },
  ...layerRules,
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
