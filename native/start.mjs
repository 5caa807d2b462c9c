// `npm start` / `npm run dev`: everything the desktop app needs before electron-vite runs.
//
// Electron 42's package has no install script: its binary arrives the first time something
// calls `require('electron')`. electron-vite never does; it reads node_modules/electron/path.txt
// and fails with "Electron uninstall" when the file is missing, which after a fresh `npm ci`
// it always is. So this script runs Electron's own installer (node_modules/electron/install.js)
// first. The installer honours Electron's documented settings from the environment or .npmrc:
// ELECTRON_MIRROR / ELECTRON_CUSTOM_DIR / ELECTRON_CUSTOM_FILENAME, electron_config_cache,
// electron_use_remote_checksums, ELECTRON_GET_USE_PROXY, force_no_cache. It returns at once
// when the binary is already in place.
//
// Then the SQLite addon for Electron's ABI (electron-native.mjs), then electron-vite with
// ELECTRON_EXEC_PATH pointing at the binary just checked, so both use the same one.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareSqliteForElectron } from './electron-native.mjs';

/** The folder of the `electron` package that `root`'s code resolves. */
export function electronPackageDir(root) {
  return dirname(createRequire(join(root, 'package.json')).resolve('electron/package.json'));
}

/**
 * Makes sure Electron's binary is on disk, downloading it through Electron's own installer
 * when it is not; returns its path, or null after saying what went wrong and what to do.
 */
export function ensureElectronBinary(root, env = process.env) {
  // A binary the user chose: electron-vite runs it as is, so there is nothing to download.
  if (env.ELECTRON_EXEC_PATH) return env.ELECTRON_EXEC_PATH;
  const dir = electronPackageDir(root);
  const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const installer = spawnSync(process.execPath, [join(dir, 'install.js')], { cwd: dir, env, stdio: 'inherit' });
  const pathFile = join(dir, 'path.txt');
  const executable =
    installer.status === 0 && existsSync(pathFile)
      ? join(env.ELECTRON_OVERRIDE_DIST_PATH || join(dir, 'dist'), readFileSync(pathFile, 'utf8'))
      : null;
  if (executable && existsSync(executable)) return executable;
  console.error(
    `Could not download Electron ${version}'s binary (the installer's error is above). It comes from ` +
      'github.com/electron/electron/releases once and is cached. Behind a proxy set ELECTRON_GET_USE_PROXY=1 ' +
      'with HTTPS_PROXY; to download from a mirror set ELECTRON_MIRROR (for example ' +
      'https://npmmirror.com/mirrors/electron/); with a mirror that has no matching checksums set ' +
      'electron_use_remote_checksums=1 so the mirror\'s SHASUMS256.txt is used. Then run `npm start` again.',
  );
  return null;
}

/** Runs electron-vite (`preview` or `dev` plus the user's arguments) and resolves with its exit code. */
export function runElectronVite(root, args, electronPath, env = process.env) {
  const pkgDir = dirname(createRequire(join(root, 'package.json')).resolve('electron-vite/package.json'));
  const { bin } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const child = spawn(process.execPath, [join(pkgDir, bin['electron-vite']), ...args], {
    cwd: root,
    env: { ...env, ELECTRON_EXEC_PATH: electronPath },
    stdio: 'inherit',
  });
  // Ctrl+C reaches the whole process group already; this only keeps us alive until the child has gone.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  return new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const [mode, ...rest] = process.argv.slice(2);
  if (mode !== 'preview' && mode !== 'dev') {
    console.error('Usage: node native/start.mjs preview|dev [electron-vite options] (run through `npm start` or `npm run dev`)');
    process.exit(2);
  }
  const electronPath = ensureElectronBinary(root);
  if (!electronPath || !prepareSqliteForElectron(root)) process.exit(1);
  process.exit(await runElectronVite(root, [mode, ...rest], electronPath));
}
