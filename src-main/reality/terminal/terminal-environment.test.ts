import { existsSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastPrompt } from '../../common/metrics/terminal-state';
import { TerminalEnvironment } from './terminal-environment';

const noBwrap = existsSync(process.env.WORLDLOOM_BWRAP ?? '/usr/bin/bwrap') ? '' : ' — skipped: bubblewrap is not installed';

describe.skipIf(noBwrap !== '')(`the sandboxed terminal${noBwrap}`, () => {
  const env = new TerminalEnvironment({ commandTimeoutMs: 2000, maxOutputBytes: 4096 });
  let initial = '';
  beforeAll(async () => {
    initial = await env.start();
  }, 30_000);
  afterAll(() => env.dispose());

  it('starts at a prompt the metrics read, in a throwaway home', () => {
    expect(initial).toBe('agent@sandbox:~$');
    expect(lastPrompt(initial)).toMatchObject({ user: 'agent', host: 'sandbox', cwd: '~' });
  });

  it('shows output then the next prompt, and records the exit status', async () => {
    const step = await env.step('mkdir -p src && cd src && pwd');
    expect(step.observation).toBe('/home/agent/src\nagent@sandbox:~/src$');
    expect(step.details).toMatchObject({ exitStatus: 0, timedOut: false });
    const failed = await env.step('ls /does-not-exist');
    expect(failed.observation).toMatch(/^ls: cannot access '\/does-not-exist': No such file or directory\nagent@sandbox:~\/src\$$/);
    expect(failed.details.exitStatus).toBe(2);
    expect(env.log.map((e) => e.action)).toEqual(['mkdir -p src && cd src && pwd', 'ls /does-not-exist']);
  });

  it('keeps a long command line out of the observation even when it wraps', async () => {
    const step = await env.step(`echo ${'x'.repeat(300)} > long.txt; wc -c < long.txt`);
    expect(step.observation).toBe('301\nagent@sandbox:~/src$');
  });

  it('cannot reach a port listening on the host loopback', async () => {
    const server: Server = createServer((socket) => socket.end('hello from the host\n'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    let connections = 0;
    server.on('connection', () => connections++);
    try {
      const step = await env.step(`cat < /dev/tcp/127.0.0.1/${port}; echo "status=$?"`);
      expect(step.observation).toMatch(/Connection refused/);
      expect(step.observation).not.toMatch(/hello from the host/);
      expect(step.observation).toMatch(/status=1/);
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it('cannot write into the real home directory', async () => {
    const probe = join(homedir(), `worldloom-sandbox-probe-${process.pid}`);
    rmSync(probe, { force: true });
    const step = await env.step(`echo escaped > ${probe}; echo "status=$?"`);
    expect(step.observation).toMatch(/status=1/);
    expect(existsSync(probe)).toBe(false);
  });

  it('stops a command that runs past its time limit and says so', async () => {
    const step = await env.step('sleep 30');
    expect(step.details).toMatchObject({ timedOut: true });
    expect(step.observation).toMatch(/timed out after 2s/);
    expect(lastPrompt(step.observation)?.cwd).toBe('~/src');
    const after = await env.step('echo still here');
    expect(after.observation).toBe('still here\nagent@sandbox:~/src$');
  });

  it('kills a command that ignores Ctrl-C', async () => {
    const step = await env.step(`bash -c 'trap "" INT; sleep 30'`);
    expect(step.observation).toMatch(/timed out after 2s/);
    expect((await env.step('echo alive')).observation).toBe('alive\nagent@sandbox:~/src$');
  }, 15_000);

  it('truncates long output with a marker and sets the process limit', async () => {
    const step = await env.step('seq 1 100000');
    expect(step.details).toMatchObject({ truncated: true });
    expect(step.observation).toMatch(/\[output truncated: only the first 4096 bytes of \d+ are shown\]\nagent@sandbox:~\/src\$$/);
    expect((await env.step('ulimit -u')).observation).toBe('256\nagent@sandbox:~/src$');
  });
});

describe('without bubblewrap', () => {
  it('refuses to run a shell and says how to install the sandbox', async () => {
    const saved = process.env.WORLDLOOM_BWRAP;
    process.env.WORLDLOOM_BWRAP = '/nonexistent/bwrap';
    try {
      await expect(new TerminalEnvironment().start()).rejects.toThrow(/never runs a shell without a sandbox.*apt-get install bubblewrap/);
    } finally {
      if (saved === undefined) delete process.env.WORLDLOOM_BWRAP;
      else process.env.WORLDLOOM_BWRAP = saved;
    }
  });
});
