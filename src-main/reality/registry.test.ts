// The process-wide cap on real environments running at once: a start past the cap is
// refused with a "busy" error that says what to do, and every way out of an environment
// (dispose, a failed start) gives its slot back.
import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_SANDBOXES, maxSandboxes, openRealEnvironment, runningSandboxes } from './registry';
import type { RealEnvironment } from './environment';

const noBwrap = existsSync(process.env.WORLDLOOM_BWRAP ?? '/usr/bin/bwrap') ? '' : ' — skipped: bubblewrap is not installed';

describe('the cap on real environments at once', () => {
  const opened: RealEnvironment[] = [];
  const saved = { max: process.env.WORLDLOOM_MAX_SANDBOXES, bwrap: process.env.WORLDLOOM_BWRAP };
  afterEach(async () => {
    for (const env of opened.splice(0)) await env.dispose();
    for (const [key, value] of [['WORLDLOOM_MAX_SANDBOXES', saved.max], ['WORLDLOOM_BWRAP', saved.bwrap]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  it('defaults to 4 and refuses a setting that is not a whole number of at least 1', () => {
    delete process.env.WORLDLOOM_MAX_SANDBOXES;
    expect(maxSandboxes()).toBe(DEFAULT_MAX_SANDBOXES);
    expect(DEFAULT_MAX_SANDBOXES).toBe(4);
    process.env.WORLDLOOM_MAX_SANDBOXES = '0';
    expect(() => maxSandboxes()).toThrow(/WORLDLOOM_MAX_SANDBOXES must be a whole number of at least 1 \(it is "0"\)/);
  });

  it('gives the slot back when a start fails', async () => {
    process.env.WORLDLOOM_MAX_SANDBOXES = '1';
    process.env.WORLDLOOM_BWRAP = '/nonexistent/bwrap';
    const env = openRealEnvironment('terminal', { terminal: { commandTimeoutSeconds: 5 } });
    opened.push(env);
    const before = runningSandboxes();
    await expect(env.start()).rejects.toMatchObject({ code: 'no-sandbox' });
    expect(runningSandboxes()).toBe(before);
  });

  it.skipIf(noBwrap !== '')(`refuses a start past the cap as busy, and starts it once a slot is free${noBwrap}`, async () => {
    process.env.WORLDLOOM_MAX_SANDBOXES = String(runningSandboxes() + 1);
    const first = openRealEnvironment('terminal', { terminal: { commandTimeoutSeconds: 5 } });
    opened.push(first);
    await first.start();
    const second = openRealEnvironment('terminal', { terminal: { commandTimeoutSeconds: 5 } });
    opened.push(second);
    await expect(second.start()).rejects.toMatchObject({
      code: 'busy',
      message: expect.stringMatching(/^Busy: .* already running here, the most at once \(\d+\)\. Wait for .* or set WORLDLOOM_MAX_SANDBOXES/),
    });
    await first.dispose();
    await first.dispose(); // twice gives back one slot, not two
    expect(await second.start()).toBe('agent@sandbox:~$');
    expect((await second.step('echo started')).observation).toBe('started\nagent@sandbox:~$');
    const third = openRealEnvironment('terminal', { terminal: { commandTimeoutSeconds: 5 } });
    opened.push(third);
    await expect(third.start()).rejects.toMatchObject({ code: 'busy' });
  }, 30_000);
});
