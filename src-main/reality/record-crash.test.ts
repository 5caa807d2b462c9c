// `worldloom record` killed with SIGKILL in the middle of a session keeps every step it
// had finished: each is written to the workspace as it completes.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspaceStore } from '../store/workspace-store';
import { CLI_BIN } from '../testing/cli-bin';

const bin = CLI_BIN;
const noBwrap = existsSync(process.env.WORLDLOOM_BWRAP ?? '/usr/bin/bwrap') ? '' : ' — skipped: bubblewrap is not installed';

describe.skipIf(noBwrap !== '')(`record killed mid-session${noBwrap}`, () => {
  it('keeps the steps that completed before kill -9', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-record-kill-'));
    const script = join(dir, 'actions.sh');
    writeFileSync(script, 'echo one\necho two\nsleep 60\necho never\n');
    const workspace = join(dir, 'w.worldloom');
    await new Promise<void>((resolve, reject) => {
      const proc = spawn(process.execPath, [bin, 'record', 'terminal', '--workspace', workspace, '--script', script, '--timeout', '120'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let said = '';
      proc.stderr.on('data', (d: Buffer) => {
        said += d.toString();
        // Step 2 is done and step 3 (sleep 60) is running: kill without warning.
        if (said.includes('[2/4]')) proc.kill('SIGKILL');
      });
      proc.on('exit', (_code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`record ended by itself: ${said}`))));
    });
    const store = WorkspaceStore.open(workspace);
    try {
      const [trajectory] = store.listTrajectories();
      expect(trajectory).toBeDefined();
      const nodes = store.getNodes(trajectory!.id);
      expect(nodes.map((n) => n.action)).toEqual(['', 'echo one', 'echo two']);
      expect(nodes[2]!.observation).toBe('two\nagent@sandbox:~$');
      expect(nodes.every((n) => n.origin === 'real')).toBe(true);
    } finally {
      store.close();
    }
  }, 60_000);
});
