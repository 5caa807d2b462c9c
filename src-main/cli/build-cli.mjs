// Builds the `worldloom` CLI to JavaScript in out/cli/ (run by `npm install`'s `prepare`, by
// the test setup, and by `npm run build:cli`), so a verb starts without compiling TypeScript.
//
// One ES module bundle of the project's own code: the entry (commander and the verb table),
// one chunk per verb (each verb is a dynamic import in verbs.ts), and chunks the verbs share.
// Every npm package stays external, loaded from node_modules as Node loads it: the native
// addons (better-sqlite3, node-pty, onnxruntime-node, node-llama-cpp) must, and the others
// find their own files beside them. import-worker and model-probe-child are entries too: the
// code that starts them looks for them beside the bundle, as it does in the desktop build.
//
// Every file is written whole (a temporary file renamed over it) and only when it changed,
// chunks before entries: two builds at once (parallel test runs) never leave a half-written
// file, and a CLI already running still finds the chunks its entry names.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI_OUT_DIR = join(ROOT, 'out', 'cli');
const ENTRIES = {
  worldloom: 'src-main/cli/main.ts',
  'import-worker': 'src-main/formats/import-worker.ts',
  'model-probe-child': 'src-main/engine/model-probe-child.ts',
};
/**
 * Packages loaded from node_modules rather than bundled: native addons and packages that find
 * their own files on disk (binaries, workers, browsers). Every other package is bundled, which
 * is most of the start-up time saved: Node loads a few large files faster than hundreds of small ones.
 */
const EXTERNAL = [
  'better-sqlite3',
  'node-pty',
  'onnxruntime-node',
  'node-llama-cpp',
  '@node-llama-cpp/*',
  'playwright-core',
  'tsx',
  'electron',
  'esbuild',
  'vite',
];
/** Files of an older build still there after this long are removed (a CLI started before it is long done). */
const STALE_MS = 10 * 60_000;

/** Builds the CLI into out/cli/; resolves with the files written (those that changed). */
export async function buildCli({ clean = false } = {}) {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch {
    throw new Error('esbuild is not installed, so the worldloom CLI cannot be built: run `npm install` (with dev dependencies) in the project folder.');
  }
  if (clean) rmSync(CLI_OUT_DIR, { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ENTRIES,
    outdir: CLI_OUT_DIR,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: EXTERNAL,
    // CommonJS packages inside an ES module bundle still call require() for Node's own modules.
    banner: { js: "import { createRequire as __worldloomRequire } from 'node:module'; const require = __worldloomRequire(import.meta.url);" },
    // Chunks sit beside the entries: code that finds files from import.meta.url
    // (cli/paths.ts: the project root two folders up) reads the same from every file.
    chunkNames: '[name]-[hash]',
    entryNames: '[name]',
    write: false,
    metafile: true,
    logLevel: 'warning',
  });
  mkdirSync(CLI_OUT_DIR, { recursive: true });
  const entryNames = new Set(Object.keys(ENTRIES).map((name) => `${name}.js`));
  // What each file imports (build-cli.test.ts reads it: which verb loads what).
  const meta = { path: join(CLI_OUT_DIR, 'meta.json'), text: JSON.stringify(result.metafile) };
  const files = [meta, ...result.outputFiles].sort((a, b) => Number(entryNames.has(basename(a.path))) - Number(entryNames.has(basename(b.path))));
  const written = [];
  for (const file of files) {
    const name = basename(file.path);
    const text = name === 'worldloom.js' ? `#!/usr/bin/env node\n${file.text}` : file.text;
    if (existsSync(file.path) && readFileSync(file.path, 'utf8') === text) continue;
    const partial = `${file.path}.${process.pid}.partial`;
    writeFileSync(partial, text, { mode: name === 'worldloom.js' ? 0o755 : 0o644 });
    renameSync(partial, file.path);
    written.push(relative(ROOT, file.path));
  }
  const current = new Set(files.map((f) => basename(f.path)));
  for (const name of readdirSync(CLI_OUT_DIR)) {
    const path = join(CLI_OUT_DIR, name);
    if (!current.has(name) && Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
  }
  return written;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  const written = await buildCli({ clean: process.argv.includes('--clean') }).catch((error) => {
    console.error(error.message);
    process.exit(1);
  });
  console.log(`worldloom CLI built in ${relative(ROOT, CLI_OUT_DIR)}/ (${written.length} file(s) changed, ${Math.round(performance.now() - started)} ms)`);
}
