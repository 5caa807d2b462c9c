import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRecent } from '../service/recent-workspaces';
import { withCore } from './core';

describe('the CLI door', () => {
  it('reaches the core through the contract: validated inputs, the app door reads cli, the recent list stays the app’s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-cli-core-'));
    process.env.WORLDLOOM_CONFIG_DIR = join(dir, 'config');
    const path = join(dir, 'new.worldloom');
    await withCore({ workspace: { path, create: true } }, async (core) => {
      expect(await core.call('app.info', {})).toMatchObject({ door: 'cli', workspace: { path, trajectories: 0 } });
      // The contract's validation answers, as it does for the app.
      await expect(core.call('simulate.run', { jobId: '', nodeId: 'n', action: 'ls' })).rejects.toThrow(/Invalid input for simulate.run: jobId/);
      await expect(core.call('simulate.run', { jobId: 'j', nodeId: 'n', action: 'ls' })).rejects.toThrow(/No world model is loaded/);
    });
    expect(readRecent()).toEqual([]);
    await expect(withCore({ workspace: { path: join(dir, 'missing.worldloom') } }, async () => undefined)).rejects.toThrow(/No workspace at/);
  });
});
