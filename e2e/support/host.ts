// Starts `worldloom serve` as a user would and opens it in a real Chromium.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The built CLI (package.json's bin); the e2e setup builds it from the current source. */
export const CLI = join(ROOT, 'out', 'cli', 'worldloom.js');
/** The committed test model (qwen35/tiny-chat): tiny, fast, deterministic, its replies end; what the stories simulate with. */
export const TEST_MODEL = join(ROOT, 'src-main', 'engine', 'onnx', 'fixtures', 'qwen35', 'tiny-chat');
/** A model that never stops on its own (the parity fixture, stop rows weakened): for stories that cancel a long run. */
export const ENDLESS_MODEL = join(ROOT, 'src-main', 'engine', 'onnx', 'fixtures', 'qwen35', 'tokens-fp32');

export const CHROMIUM_PATH = process.env.WORLDLOOM_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export interface ServedStudio {
  url: string;
  dir: string;
  /** Everything serve printed so far (the API's address with --openai, for one). */
  output(): string;
  stop(): Promise<void>;
}

export async function serveStudio(args: string[] = []): Promise<ServedStudio> {
  const dir = mkdtempSync(join(tmpdir(), 'wl-e2e-'));
  const proc: ChildProcess = spawn(process.execPath, [CLI, 'serve', ...args], {
    cwd: ROOT,
    env: { ...process.env, WORLDLOOM_CONFIG_DIR: join(dir, 'config') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let out = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /serving at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    proc.once('exit', (code) => reject(new Error(`worldloom serve exited (${code}): ${stderr}`)));
  });
  return {
    url,
    dir,
    output: () => out,
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}

export async function openBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
}

/** Fails the test on any uncaught page error, so a broken UI cannot pass quietly. */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** Why the host-UI stories are skipped on this machine, or '' when Chromium is there. */
export const NO_CHROMIUM = chromiumAvailable()
  ? ''
  : ' — skipped: no Chromium at /usr/bin/chromium (apt-get install -y chromium, or set WORLDLOOM_CHROMIUM)';

/**
 * Starts `worldloom serve` (with `args`, computed when the suite starts) and a Chromium for
 * the enclosing describe block, and stops both after it. Each story's pages are closed after
 * it, so an earlier tab never reacts to the shared host's events during a later story.
 */
export function useStudioInBrowser(args: () => string[] | Promise<string[]> = () => []): { readonly studio: ServedStudio; readonly browser: Browser } {
  let studio: ServedStudio | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    studio = await serveStudio(await args());
    browser = await openBrowser();
  });
  afterEach(async () => {
    for (const context of browser?.contexts() ?? []) await context.close();
  });
  afterAll(async () => {
    await browser?.close();
    await studio?.stop();
  });
  return {
    get studio() {
      return studio!;
    },
    get browser() {
      return browser!;
    },
  };
}

/** A fresh workspace holding the terminal fixture, imported with the CLI as a user would. */
export function importedWorkspace(name: string): string {
  const workspace = join(mkdtempSync(join(tmpdir(), 'wl-e2e-')), `${name}.worldloom`);
  execFileSync(process.execPath, [CLI, 'import', join(ROOT, 'e2e', 'fixtures', 'terminal_test.jsonl'), '--workspace', workspace], { stdio: 'ignore' });
  return workspace;
}
