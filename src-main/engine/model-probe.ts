// A model file the app has not opened before is opened first in a short-lived child process
// (model-probe-child.ts): llama.cpp and onnxruntime end the process on some files (an assert,
// a division by zero) instead of returning an error, and no list of checks can foresee every
// one. The child's verdict is kept, keyed by each file's path, size and modification time, so
// the next open of the same file pays nothing; a file that changes is probed again. Only after
// the child came back does the caller load the model in its own process.

import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EngineError } from '../common/engine';

export type ProbeKind = 'gguf' | 'onnx';

export interface ProbeVerdict {
  /** The runtime opened the file. */
  ok: boolean;
  /** The child died (a signal, a crash, the time limit): the file must not be opened in this process. */
  crashed: boolean;
  /** Why the file was refused, in words a user can act on. */
  message?: string;
  /** How long the child took, in milliseconds. */
  ms: number;
}

/** What the child writes as its last stdout line; in the cache, ok says the file is safe to open in process. */
export interface ProbeReport {
  ok: boolean;
  message?: string;
}

/** Longest a probe may run: a load that maps the file never reads all of it. */
const PROBE_TIMEOUT_MS = 600_000;
/** Lines of the child's stderr kept to say what it printed before it died. */
const KEPT_LINES = 8;
const CACHE_FILE = 'model-checks.json';
/** Verdicts kept; the oldest go first. */
const CACHE_LIMIT = 500;

/**
 * Where verdicts are kept: WORLDLOOM_CACHE_DIR, else the platform's cache folder for Worldloom.
 * Not moved by WORLDLOOM_CONFIG_DIR (which tests set per test file), so a committed fixture is
 * probed once per machine, not once per test file.
 */
export function probeCacheDir(): string {
  if (process.env.WORLDLOOM_CACHE_DIR) return process.env.WORLDLOOM_CACHE_DIR;
  if (process.platform === 'win32') return join(process.env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'Worldloom', 'Cache');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'Worldloom');
  return join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'worldloom');
}

function probeKey(kind: ProbeKind, files: readonly string[]): string {
  const hash = createHash('sha256').update(kind);
  for (const file of files) {
    const { size, mtimeMs } = statSync(file);
    hash.update(`\0${realpathSync(file)}\0${size}\0${mtimeMs}`);
  }
  return hash.digest('hex').slice(0, 40);
}

function readCache(): Record<string, ProbeReport> {
  try {
    const parsed = JSON.parse(readFileSync(join(probeCacheDir(), CACHE_FILE), 'utf8')) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, ProbeReport>) : {};
  } catch {
    return {};
  }
}

function writeCache(key: string, report: ProbeReport): void {
  const cache = readCache();
  delete cache[key];
  cache[key] = report;
  const kept = Object.fromEntries(Object.entries(cache).slice(-CACHE_LIMIT));
  const dir = probeCacheDir();
  mkdirSync(dir, { recursive: true });
  // Write then rename: two probes finishing together never leave half a file.
  const partial = join(dir, `${CACHE_FILE}.${process.pid}.partial`);
  writeFileSync(partial, JSON.stringify(kept));
  renameSync(partial, join(dir, CACHE_FILE));
}

/** The child's entry and how to start it: from source through tsx, in a built app the bundled .js beside main. */
function childEntry(): { entry: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) {
    const tsx = createRequire(import.meta.url).resolve('tsx/esm');
    return { entry: join(dirname(here), 'model-probe-child.ts'), execArgv: ['--import', pathToFileURL(tsx).href] };
  }
  for (const candidate of [join(dirname(here), 'model-probe-child.js'), join(dirname(here), '..', 'model-probe-child.js')]) {
    if (existsSync(candidate)) return { entry: candidate, execArgv: [] };
  }
  throw new EngineError('This build has no model probe (model-probe-child.js beside the main bundle); reinstall Worldloom.', 'provider');
}

/** Opens `path` in a child process and says how it went; a child that dies is a refusal naming the signal and its last words. */
export function probeInChild(kind: ProbeKind, path: string, label: string): Promise<ProbeVerdict> {
  const started = performance.now();
  const { entry, execArgv } = childEntry();
  return new Promise((resolve) => {
    const child = fork(entry, [kind, path], {
      execArgv,
      // Inside Electron, process.execPath is the app: this makes it run the child as plain Node.
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    let stdout = '';
    const stderr: string[] = [];
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr.push(...chunk.split('\n').filter((line) => line.trim() !== ''));
      stderr.splice(0, Math.max(0, stderr.length - KEPT_LINES));
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (code === 0 && last.startsWith('{')) {
        try {
          const report = JSON.parse(last) as ProbeReport;
          resolve({ ok: report.ok === true, crashed: false, ...(report.message ? { message: report.message } : {}), ms });
          return;
        } catch { /* an unreadable report is a failure, said below */ }
      }
      const how = signal ? `was ended by ${signal}` : `exited with code ${code}`;
      const said = stderr.length > 0 ? ` The last thing it printed: ${stderr.slice(-3).join(' / ').replace(/[.\s]*$/, '')}.` : '';
      resolve({
        ok: false,
        crashed: true,
        ms,
        message:
          `Opening ${label} ${signal === 'SIGKILL' && ms >= PROBE_TIMEOUT_MS ? `took more than ${PROBE_TIMEOUT_MS / 1000} s and was stopped` : `in a separate process, ${kind === 'gguf' ? 'llama.cpp' : 'onnxruntime'} ${how}`}; ` +
          `in the app it would have ended the app.${said} The file is damaged or holds values the runtime cannot handle: download or convert it again.`,
      });
    });
  });
}

/**
 * Makes sure `files` (a model's files, `path` the one the runtime opens) were opened once in a
 * child process, and throws the child's refusal when opening them ended it. A runtime that
 * refused the file with an error of its own did not crash: the caller opens it and says why, as
 * it always did. A verdict is kept per path, size and modification time.
 */
export async function ensureProbed(kind: ProbeKind, path: string, files: readonly string[], label: string): Promise<ProbeVerdict | null> {
  const key = probeKey(kind, files);
  const known = readCache()[key];
  if (known) {
    if (!known.ok) throw new EngineError(known.message ?? `${label} ended the runtime when it was first opened.`, 'model-corrupt');
    return null;
  }
  const verdict = await probeInChild(kind, path, label);
  // Kept as: safe to open in this process (it opened, or the runtime refused it with an error), or not.
  writeCache(key, { ok: !verdict.crashed, ...(verdict.crashed && verdict.message ? { message: verdict.message } : {}) });
  if (verdict.crashed) throw new EngineError(verdict.message!, 'model-corrupt');
  return verdict;
}
