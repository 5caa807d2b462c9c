// `npm run package`: the desktop app's installers for the OS this runs on, with electron-builder
// and electron-builder.config.mjs (Linux: AppImage and .deb; macOS: .dmg for arm64 and x64;
// Windows: NSIS), written to release/. `npm run package -- --dir` packs the unpacked app folder
// only (release/<os>-unpacked), which is what the packaging test checks.
//
// Before packing: electron-vite builds the main process, preload and renderer (out/), and the
// SQLite addon is prepared for Electron's ABI (native/electron-native.mjs), shipped beside the
// app. Electron's own binary comes from the electron package's cache (downloaded once) unless
// --electron-dist DIR names an unpacked Electron distribution folder.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { config } from '../electron-builder.config.mjs';
import { prepareSqliteForElectron } from './electron-native.mjs';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Packs the app with electron-builder. `dir`: the unpacked folder only, else the installers of
 * the config for this OS. `electronDist`: a folder holding an unpacked Electron. `output`: where
 * to write (default release/). Resolves with electron-builder's list of written files.
 */
export async function packApp({ dir = false, electronDist, output } = {}) {
  const { build, Platform } = await import('electron-builder');
  return build({
    projectDir: ROOT,
    publish: 'never',
    ...(dir ? { targets: Platform.current().createTarget('dir') } : {}),
    config: {
      ...config,
      ...(electronDist ? { electronDist } : {}),
      ...(output ? { directories: { ...config.directories, output } } : {}),
    },
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      dir: { type: 'boolean' },
      'electron-dist': { type: 'string' },
      output: { type: 'string' },
      // For the packaging test on a machine that cannot download: out/ is already built, and an
      // app without SQLite for Electron is fine for a tree that is checked, never started.
      'no-build': { type: 'boolean' },
      'no-electron-sqlite': { type: 'boolean' },
    },
  });
  if (!values['no-build']) {
    const built = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }
  if (!values['no-electron-sqlite'] && !prepareSqliteForElectron(ROOT)) process.exit(1);
  try {
    const files = await packApp({ dir: values.dir, electronDist: values['electron-dist'], output: values.output });
    console.log(`Packed into ${values.output ?? join(ROOT, 'release')}:\n${files.map((f) => `  ${f}`).join('\n')}`);
  } catch (error) {
    console.error(`Packaging failed: ${error.message}`);
    process.exit(1);
  }
}
