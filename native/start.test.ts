// `npm start` on a fresh install: native/start.mjs must fetch Electron's binary through
// Electron's own installer before electron-vite runs, or electron-vite stops with
// "Electron uninstall". No network here and no real Electron binary can run, so the test
// serves Electron's release layout from 127.0.0.1 through Electron's documented mirror
// settings (ELECTRON_MIRROR, electron_use_remote_checksums, electron_config_cache), with a
// zip that holds a tiny shell script in place of the binary; the real electron-vite then
// launches that script, which records how it was started.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('..', import.meta.url));
const electronPkg = JSON.parse(readFileSync(join(repo, 'node_modules', 'electron', 'package.json'), 'utf8')) as {
  version: string;
  files: string[];
};
const tag = `v${electronPkg.version}`;
// Electron's release names: armv7l for 32-bit ARM, the Node arch otherwise.
const zipName = `electron-${tag}-${process.platform}-${process.arch === 'arm' ? 'armv7l' : process.arch}.zip`;
const exeInZip = process.platform === 'darwin' ? 'Electron.app/Contents/MacOS/Electron' : 'electron';

/** Electron's release layout for this platform: the zip and the SHASUMS256.txt that vouches for it. */
function releaseFiles(): Map<string, Buffer> {
  const launcher = '#!/bin/sh\nprintf "%s\\n" "$PWD" "$@" > "$FAKE_ELECTRON_MARK"\n';
  const zip = Buffer.from(
    zipSync({
      // os 3 (Unix) with the mode in the high bits of the external attributes: an executable file.
      [exeInZip]: [strToU8(launcher), { os: 3, attrs: (0o100755 << 16) >>> 0 }],
      version: strToU8(tag),
    }),
  );
  const sum = createHash('sha256').update(zip).digest('hex');
  return new Map([
    [`/${tag}/${zipName}`, zip],
    [`/${tag}/SHASUMS256.txt`, Buffer.from(`${sum} *${zipName}\n`)],
  ]);
}

/** A project laid out like a fresh clone after `npm ci`: its own copy of the electron package, without the binary. */
function freshProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'worldloom-start-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'start-test', main: 'out/main/main.js', type: 'module' }));
  mkdirSync(join(dir, 'out', 'main'), { recursive: true });
  writeFileSync(join(dir, 'out', 'main', 'main.js'), '');
  mkdirSync(join(dir, 'native'));
  for (const file of ['start.mjs', 'electron-native.mjs']) copyFileSync(join(repo, 'native', file), join(dir, 'native', file));
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, 'electron'), { recursive: true });
  for (const file of ['package.json', ...electronPkg.files]) {
    cpSync(join(repo, 'node_modules', 'electron', file), join(modules, 'electron', file), { recursive: true });
  }
  for (const shared of ['@electron', '@electron-internal', 'electron-vite', 'better-sqlite3']) {
    symlinkSync(join(repo, 'node_modules', shared), join(modules, shared), 'dir');
  }
  // The SQLite step is not what this test is about and needs GitHub or Electron's headers;
  // it is marked done the way electron-native.mjs itself marks it.
  const sqlite = join(modules, '.worldloom-electron');
  mkdirSync(sqlite);
  copyFileSync(join(repo, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'), join(sqlite, 'better_sqlite3.node'));
  const sqliteVersion = (JSON.parse(readFileSync(join(repo, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8')) as { version: string }).version;
  writeFileSync(
    join(sqlite, 'stamp.json'),
    JSON.stringify({ electron: electronPkg.version, betterSqlite3: sqliteVersion, arch: process.arch, platform: process.platform }),
  );
  return dir;
}

function runStart(project: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(project, 'native', 'start.mjs'), 'preview', '--skipBuild'], {
      cwd: project,
      env,
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe.skipIf(process.platform === 'win32')('npm start on a fresh install', () => {
  const files = releaseFiles();
  const requests: string[] = [];
  let server: Server;
  let mirror = '';
  let work = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      const body = files.get(req.url ?? '');
      res.writeHead(body ? 200 : 404).end(body ?? 'not here');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    mirror = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    work = mkdtempSync(join(tmpdir(), 'worldloom-start-cache-'));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(work, { recursive: true, force: true });
  });

  function envFor(project: string, mirrorUrl: string): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    // Only what a user's shell would carry, none of the npm/Electron settings of whoever runs the tests.
    for (const [key, value] of Object.entries(process.env)) {
      if (!/^(npm_|electron_|ELECTRON_|force_no_cache)/i.test(key)) env[key] = value;
    }
    return {
      ...env,
      ELECTRON_MIRROR: mirrorUrl,
      electron_use_remote_checksums: '1',
      electron_config_cache: join(work, 'electron-cache'),
      ELECTRON_GET_NO_PROGRESS: '1',
      FAKE_ELECTRON_MARK: join(project, 'launched.txt'),
    };
  }

  it('downloads the binary through Electron\'s installer and its mirror settings, then electron-vite launches it', async () => {
    const project = freshProject();
    try {
      const electronDir = join(project, 'node_modules', 'electron');
      expect(existsSync(join(electronDir, 'path.txt'))).toBe(false);

      const first = await runStart(project, envFor(project, mirror));
      expect(first.output).not.toContain('Electron uninstall');
      expect(first.code, first.output).toBe(0);
      expect(readFileSync(join(electronDir, 'path.txt'), 'utf8')).toBe(exeInZip);
      expect(requests).toContain(`/${tag}/${zipName}`);
      expect(requests).toContain(`/${tag}/SHASUMS256.txt`);
      // electron-vite found the binary and started it on the app's entry from the project folder.
      const [cwd, entry] = readFileSync(join(project, 'launched.txt'), 'utf8').trim().split('\n');
      expect(cwd).toBe(project);
      expect(entry).toBe('.');
      // The zip went into the cache the user named, as Electron's installer keeps it.
      expect(readdirSync(join(work, 'electron-cache'), { recursive: true }).map(String)).toContainEqual(
        expect.stringContaining(zipName),
      );

      // A second start downloads nothing.
      requests.length = 0;
      rmSync(join(project, 'launched.txt'));
      const second = await runStart(project, envFor(project, mirror));
      expect(second.code, second.output).toBe(0);
      expect(requests).toEqual([]);
      expect(existsSync(join(project, 'launched.txt'))).toBe(true);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('a second fresh install takes the zip from electron_config_cache instead of downloading it again', async () => {
    const project = freshProject();
    try {
      requests.length = 0;
      const run = await runStart(project, envFor(project, mirror));
      expect(run.code, run.output).toBe(0);
      expect(requests).not.toContain(`/${tag}/${zipName}`);
      expect(existsSync(join(project, 'node_modules', 'electron', 'path.txt'))).toBe(true);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('a mirror without the release stops before electron-vite and says which settings to check', async () => {
    const project = freshProject();
    try {
      const run = await runStart(project, {
        ...envFor(project, `${mirror}nothing-here/`),
        electron_config_cache: join(project, 'empty-cache'),
      });
      expect(run.code).toBe(1);
      expect(run.output).toContain(`Could not download Electron ${electronPkg.version}'s binary`);
      expect(run.output).toContain('ELECTRON_MIRROR');
      expect(existsSync(join(project, 'launched.txt'))).toBe(false);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
