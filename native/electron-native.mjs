// Builds better-sqlite3 once more for Electron's Node ABI, beside (not over) the build
// that `npm install` made for plain Node, so the desktop app, the CLI and the tests can
// all use the same node_modules. Run by `npm start` (native/start.mjs); does nothing when
// already done. Prefers the addon's published prebuilt binary; falls back to compiling
// with node-gyp against Electron's headers (needs a C++ toolchain).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Prepares the addon for the Electron in `root`'s node_modules; returns false (after saying why) when it cannot. */
export function prepareSqliteForElectron(root) {
  const outDir = join(root, 'node_modules', '.worldloom-electron');
  const stamp = join(outDir, 'stamp.json');
  const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  const sqliteVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8')).version;
  const wanted = { electron: electronVersion, betterSqlite3: sqliteVersion, arch: process.arch, platform: process.platform };

  if (existsSync(stamp) && existsSync(join(outDir, 'better_sqlite3.node'))) {
    const have = JSON.parse(readFileSync(stamp, 'utf8'));
    if (JSON.stringify(have) === JSON.stringify(wanted)) return true;
  }

  console.log(`Preparing the SQLite addon for Electron ${electronVersion} (once)…`);
  const work = join(outDir, 'better-sqlite3');
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  cpSync(join(root, 'node_modules', 'better-sqlite3'), work, {
    recursive: true,
    filter: (src) => !src.includes(`${join('better-sqlite3', 'build')}`),
  });

  const run = (cmd, args) => spawnSync(cmd, args, { cwd: work, stdio: 'inherit', shell: process.platform === 'win32' });
  const prebuild = join(root, 'node_modules', 'prebuild-install', 'bin.js');
  let ok =
    existsSync(prebuild) &&
    run(process.execPath, [prebuild, '--runtime', 'electron', '--target', electronVersion, '--arch', process.arch]).status === 0;
  if (!ok) {
    const nodeGyp = process.env.npm_config_node_gyp;
    const gypArgs = ['rebuild', '--release', '--runtime=electron', `--target=${electronVersion}`, '--dist-url=https://electronjs.org/headers'];
    ok = (nodeGyp ? run(process.execPath, [nodeGyp, ...gypArgs]) : run('npx', ['--yes', 'node-gyp', ...gypArgs])).status === 0;
  }
  const built = join(work, 'build', 'Release', 'better_sqlite3.node');
  if (!ok || !existsSync(built)) {
    console.error(
      'Could not prepare better-sqlite3 for Electron. Check your network connection (the prebuilt addon is downloaded once) ' +
        'or install a C++ toolchain (build-essential / Xcode tools / Visual Studio Build Tools), then run `npm start` again.',
    );
    return false;
  }
  cpSync(built, join(outDir, 'better_sqlite3.node'));
  rmSync(work, { recursive: true, force: true });
  writeFileSync(stamp, JSON.stringify(wanted));
  console.log('SQLite addon ready for Electron.');
  return true;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exit(prepareSqliteForElectron(fileURLToPath(new URL('..', import.meta.url))) ? 0 : 1);
}
