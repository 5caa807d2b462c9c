// Launches the real desktop app where an Electron binary exists. Electron downloads its
// binary on first launch; machines that cannot reach its download host skip this test
// and say so.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support/host';
import { closeWorkspace } from './support/studio-page';

function electronBinary(): string | null {
  const pathFile = join(ROOT, 'node_modules', 'electron', 'path.txt');
  if (!existsSync(pathFile)) return null;
  const bin = join(ROOT, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(bin) ? bin : null;
}

const binary = electronBinary();
const skipped = binary
  ? ''
  : ' — skipped: no Electron binary here (Electron fetches it on first launch and this machine cannot reach its download host)';

describe.skipIf(!binary)(`the desktop app${skipped}`, () => {
  it('opens the demo workspace on first start, in a sandboxed window with only the contract exposed', async () => {
    const prepared = spawnSync(process.execPath, [join(ROOT, 'native', 'electron-native.mjs')], { cwd: ROOT, stdio: 'inherit' });
    expect(prepared.status).toBe(0);
    const app = await electron.launch({
      executablePath: binary!,
      args: [join(ROOT, 'out', 'main', 'main.js')],
      env: { ...process.env, WORLDLOOM_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'wl-electron-')) },
    });
    try {
      const page = await app.firstWindow();
      // A fresh config folder is a first start: the demo workspace opens, with something to simulate.
      await expect.poll(() => page.locator('.workspace-path').textContent()).toMatch(/demo\.worldloom$/);
      await closeWorkspace(page);
      // Desktop users pick workspaces with the system's dialogs, not a typed path.
      await page.getByRole('button', { name: 'New workspace…' }).waitFor();
      const exposed = await page.evaluate(() => ({
        require: typeof (globalThis as { require?: unknown }).require,
        process: typeof (globalThis as { process?: unknown }).process,
        bridge: Object.keys((window as unknown as { worldloom: object }).worldloom).sort(),
      }));
      expect(exposed).toEqual({ require: 'undefined', process: 'undefined', bridge: ['invoke', 'subscribe'] });
      const info = await page.evaluate(() =>
        (window as unknown as { worldloom: { invoke(m: string, i: unknown): Promise<unknown> } }).worldloom.invoke('app.info', {}),
      );
      expect(info).toMatchObject({ ok: true, value: { door: 'electron', nativeDialogs: true } });
    } finally {
      await app.close();
    }
  });
});
