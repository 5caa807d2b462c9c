// The desktop app packed by electron-builder (native/package-app.mjs --dir, the config of
// `npm run package`) and its tree checked: the app and renderer in the asar, every native module
// unpacked and loadable from its unpacked path, the embedded model present as files, no dev
// dependency and no other OS's binaries inside, the size reported.
//
// Electron's binary cannot be downloaded on every machine (not on CI here). With an unpacked
// Electron (node_modules/electron/dist, or WORLDLOOM_ELECTRON_DIST) and the SQLite addon built for
// it, the app is packed against it and the modules are loaded by that Electron as Node. Without one it is packed against a
// distribution folder holding no Electron (an empty file in the executable's place): electron-
// builder copies it and writes the app beside it exactly as it would, but that folder cannot
// start, and the native modules are loaded by this Node instead (npm built them for it).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { extractAll, listPackage, statFile } from '@electron/asar';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './support/host';

// A real Electron is used with the SQLite addon built for it (`npm start` prepares both once);
// the app it packs loads that addon from its resources, as the packed app does.
const electronSqlite = join(ROOT, 'node_modules', '.worldloom-electron', 'better_sqlite3.node');
const realDist = [process.env.WORLDLOOM_ELECTRON_DIST, join(ROOT, 'node_modules', 'electron', 'dist')].find(
  (dir): dir is string => !!dir && existsSync(join(dir, 'electron')) && statSync(join(dir, 'electron')).size > 0 && existsSync(electronSqlite),
);
const built = existsSync(join(ROOT, 'out', 'main', 'main.js')) && existsSync(join(ROOT, 'out', 'renderer', 'index.html'));
const NATIVE = ['better-sqlite3', 'node-pty', 'onnxruntime-node', 'node-llama-cpp'];
const MODEL = join(ROOT, 'resources', 'models', 'worldloom-nano');

function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? bytesUnder(path) : entry.isFile() ? statSync(path).size : 0;
  }
  return total;
}

/** Top-level package names in a node_modules folder (scoped ones as @scope/name). */
function packagesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => (name.startsWith('@') ? readdirSync(join(dir, name)).map((n) => `${name}/${n}`) : name.startsWith('.') ? [] : [name]));
}

describe.skipIf(process.platform !== 'linux' || !built)(
  `the packed desktop app (${!built ? 'skipped: run `npm run build` first, the app packs out/' : realDist ? `against Electron in ${realDist}` : 'against a distribution folder without Electron: no Electron with its SQLite addon here (`npm start` once prepares both where they can be downloaded)'})`,
  () => {
    const work = mkdtempSync(join(tmpdir(), 'wl-pack-'));
    afterAll(() => rmSync(work, { recursive: true, force: true }));
    let app = '';

    it('packs with electron-builder into an app folder with the app, the renderer and the model', () => {
      let dist = realDist;
      if (!dist) {
        dist = join(work, 'electron-dist');
        mkdirSync(join(dist, 'resources'), { recursive: true });
        writeFileSync(join(dist, 'electron'), '');
        chmodSync(join(dist, 'electron'), 0o755);
      }
      const args = [join(ROOT, 'native', 'package-app.mjs'), '--dir', '--no-build', '--electron-dist', dist, '--output', join(work, 'release')];
      if (!realDist) args.push('--no-electron-sqlite');
      const packed = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
      expect(packed.status, `${packed.stdout}\n${packed.stderr}`).toBe(0);
      app = join(work, 'release', 'linux-unpacked');
      expect(existsSync(join(app, 'worldloom-studio')), 'the executable, renamed from electron').toBe(true);

      const asar = join(app, 'resources', 'app.asar');
      const files = new Set(listPackage(asar, { isPack: false }).map((f) => f.split('\\').join('/')));
      for (const f of ['/package.json', '/out/main/main.js', '/out/main/import-worker.js', '/out/main/model-probe-child.js', '/out/preload/preload.cjs', '/out/renderer/index.html']) {
        expect(files.has(f), `${f} in app.asar`).toBe(true);
      }
      for (const f of readdirSync(MODEL)) {
        const packedModel = join(app, 'resources', 'worldloom', 'models', 'worldloom-nano', f);
        expect(existsSync(packedModel) && statSync(packedModel).size, `model file ${f}`).toBe(statSync(join(MODEL, f)).size);
      }
    }, 600_000);

    it('unpacks every native module, and each loads from its unpacked path and works', () => {
      const asar = join(app, 'resources', 'app.asar');
      const nodeFiles = listPackage(asar, { isPack: false }).filter((f) => f.endsWith('.node'));
      expect(nodeFiles.length).toBeGreaterThanOrEqual(NATIVE.length);
      for (const f of nodeFiles) expect((statFile(asar, f.replace(/^[/\\]/, '')) as { unpacked?: boolean }).unpacked, `${f} unpacked`).toBe(true);

      const unpacked = join(app, 'resources', 'app.asar.unpacked', 'node_modules');
      for (const name of NATIVE) expect(existsSync(join(unpacked, name, 'package.json')), `${name} unpacked`).toBe(true);
      // The app requires a native module by its path inside app.asar, and Electron reads the unpacked
      // files for it. Electron does that here when there is one; without it the archive is extracted
      // and each native module's folder replaced by a link to its unpacked folder, which Node follows
      // with --preserve-symlinks: the JavaScript comes from the archive, the binaries from app.asar.unpacked.
      let modules = join(asar, 'node_modules');
      if (!realDist) {
        const view = join(work, 'app-view');
        extractAll(asar, view);
        modules = join(view, 'node_modules');
        for (const name of [...NATIVE.filter((n) => !n.startsWith('@')), ...packagesIn(unpacked).filter((n) => n.startsWith('@node-llama-cpp/'))]) {
          rmSync(join(modules, name), { recursive: true, force: true });
          symlinkSync(join(unpacked, name), join(modules, name), 'dir');
        }
      }
      const model = join(app, 'resources', 'worldloom', 'models', 'worldloom-nano');
      // Each module does real work; then the binaries mapped into the process say where they came from.
      const script = `
        const { createRequire } = require('node:module');
        const req = createRequire(${JSON.stringify(join(modules, 'package.json'))});
        (async () => {
          const Database = req('better-sqlite3');
          const db = new Database(':memory:', ${realDist ? `{ nativeBinding: ${JSON.stringify(join(app, 'resources', 'native', 'better_sqlite3.node'))} }` : '{}'});
          console.log('better-sqlite3', db.prepare('select 6 * 7 as v').get().v);
          const pty = req('node-pty');
          const out = await new Promise((resolve) => { let s = ''; const p = pty.spawn('/bin/echo', ['pty-ok'], {}); p.onData((d) => (s += d)); p.onExit(() => resolve(s.trim())); });
          console.log('node-pty', out);
          const ort = req('onnxruntime-node');
          const session = await ort.InferenceSession.create(${JSON.stringify(join(model, 'model.onnx'))});
          console.log('onnxruntime-node', session.inputNames.length > 0 ? 'session' : 'empty');
          const { getLlama, LlamaLogLevel } = await import(require('node:url').pathToFileURL(req.resolve('node-llama-cpp')).href);
          const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error });
          const gguf = await llama.loadModel({ modelPath: ${JSON.stringify(join(model, 'worldloom-nano.gguf'))} });
          console.log('node-llama-cpp', gguf.tokenize('hello').length > 0 ? 'model' : 'empty');
          const mapped = new Set(require('node:fs').readFileSync('/proc/self/maps', 'utf8').split('\\n').map((l) => l.split(/\\s+/).slice(5).join(' ')).filter((p) => /\\.(node|so)/.test(p)));
          for (const p of mapped) console.log('mapped', p);
          process.exit(0);
        })().catch((e) => { console.error(e.stack || e.message); process.exit(1); });`;
      const runner = realDist ? join(realDist, 'electron') : process.execPath;
      const out = execFileSync(runner, ['-e', script], {
        encoding: 'utf8',
        // In the environment, not a flag, so the process node-llama-cpp forks to test its binary (a file in a linked folder) follows links the same way.
        env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', ...(realDist ? {} : { NODE_OPTIONS: '--preserve-symlinks --preserve-symlinks-main' }) }, timeout: 240_000 });
      expect(out).toContain('better-sqlite3 42');
      expect(out).toContain('node-pty pty-ok');
      expect(out).toContain('onnxruntime-node session');
      expect(out).toContain('node-llama-cpp model');
      const mapped = out.split('\n').filter((l) => l.startsWith('mapped ')).map((l) => l.slice('mapped '.length));
      for (const name of ['better-sqlite3', 'node-pty', 'onnxruntime-node', '@node-llama-cpp/']) {
        const loaded = mapped.filter((p) => p.includes(`/node_modules/${name}`));
        expect(loaded.length, `a binary of ${name} loaded: ${mapped.join(', ')}`).toBeGreaterThan(0);
        expect(loaded.filter((p) => !p.startsWith(unpacked)), `${name} loaded from app.asar.unpacked`).toEqual([]);
      }
    }, 300_000);

    it("holds no dev dependency, no other OS's binaries and no renderer package, and says its size", () => {
      const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
      const asar = join(app, 'resources', 'app.asar');
      const inAsar = new Set(listPackage(asar, { isPack: false }).map((f) => f.split('\\').join('/').match(/^\/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1]).filter((n): n is string => !!n));
      const unpacked = join(app, 'resources', 'app.asar.unpacked', 'node_modules');
      const inside = new Set([...inAsar, ...packagesIn(unpacked)]);
      expect(Object.keys(pkg.devDependencies).filter((d) => inside.has(d))).toEqual([]);
      for (const renderer of ['monaco-editor', 'react', 'react-dom', '@xterm/xterm']) expect(inside.has(renderer), renderer).toBe(false);
      // Every package the main process imports by name is inside.
      const mainImports = new Set([...readFileSync(join(ROOT, 'out', 'main', 'main.js'), 'utf8').matchAll(/from ["']((?:@[^/"']+\/)?[^/"'.][^/"']*)/g)].map((m) => m[1]!).filter((n) => !n.startsWith('node:') && n !== 'electron'));
      expect([...mainImports].filter((n) => !inside.has(n))).toEqual([]);

      expect(packagesIn(unpacked).filter((n) => n.startsWith('@node-llama-cpp/') && !n.startsWith(`@node-llama-cpp/linux-${process.arch}`))).toEqual([]);
      expect(packagesIn(unpacked).filter((n) => n.includes('cuda'))).toEqual([]);
      expect(readdirSync(join(unpacked, 'onnxruntime-node', 'bin', 'napi-v6'))).toEqual(['linux']);
      expect(existsSync(join(unpacked, 'node-pty', 'prebuilds')) ? readdirSync(join(unpacked, 'node-pty', 'prebuilds')) : []).toEqual([]);

      const size = bytesUnder(app);
      const parts = ['app.asar', 'app.asar.unpacked', 'worldloom'].map((p) => {
        const path = join(app, 'resources', p);
        return `${p} ${(((statSync(path).isDirectory() ? bytesUnder(path) : statSync(path).size) / 2 ** 20)).toFixed(0)} MiB`;
      });
      console.log(`Packed app ${relative(work, app)}: ${(size / 2 ** 20).toFixed(0)} MiB (${parts.join(', ')})${realDist ? '' : ', without Electron itself'}`);
      expect(size).toBeGreaterThan(bytesUnder(MODEL));
    });
  },
);
