// The sandbox's promises that must hold for every caller, root included (CI and this
// machine run as root): process and memory limits, what is visible, and an end-of-step
// marker that a command cannot forge. Each attack is bounded, so it stays harmless even
// where a limit would not hold.
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { descendants } from './process-group';
import { TerminalEnvironment, type TerminalLimits } from './terminal-environment';

const noBwrap = existsSync(process.env.WORLDLOOM_BWRAP ?? '/usr/bin/bwrap') ? '' : ' — skipped: bubblewrap is not installed';
const runningAs = process.getuid?.() === 0 ? 'root' : 'a normal user';

describe.skipIf(noBwrap !== '')(`the terminal sandbox, started by ${runningAs}${noBwrap}`, () => {
  let env: TerminalEnvironment | null = null;
  const open = async (limits: Partial<TerminalLimits>) => {
    env = new TerminalEnvironment({ commandTimeoutMs: 4000, ...limits });
    await env.start();
    return env;
  };
  afterEach(async () => {
    await env?.dispose();
    env = null;
  });

  it('stops a burst of processes at the process limit', async () => {
    const t = await open({ maxProcesses: 32 });
    // 100 background sleeps: far past the limit, yet bounded if the limit failed. dash gives up
    // at the first fork refused (bash would retry past the time-out, whose sweep stops the sleeps).
    const step = await t.step("sh -c 'for i in $(seq 100); do sleep 30 & done' 2>/dev/null");
    const pid = (t as unknown as { pty: { pid: number } }).pty.pid;
    const sleeping = descendants(pid).filter((p) => p.comm === 'sleep').length;
    expect(step.details.timedOut === true || step.details.exitStatus !== null).toBe(true);
    expect(sleeping).toBeGreaterThan(10);
    expect(sleeping).toBeLessThanOrEqual(32);
  }, 30_000);

  it('stops everything a timed-out step started — background, nohup and setsid jobs too — and keeps the shell and earlier jobs', async () => {
    const t = await open({ commandTimeoutMs: 3000 });
    const pid = (t as unknown as { pty: { pid: number } }).pty.pid;
    // Each sleep carries its own length, so the test can tell them apart from outside.
    const running = () =>
      descendants(pid).flatMap((p) => {
        try {
          return [readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ')];
        } catch {
          return [];
        }
      });
    // A job an earlier step left running on purpose (a server, say) is not the timed-out step's.
    expect((await t.step('sleep 3001 & echo started')).details.timedOut).toBe(false);
    const step = await t.step(
      'sleep 3002 & nohup sleep 3003 >/dev/null 2>&1 & setsid sleep 3004 & (setsid bash -c "while :; do sleep 3005; done" &); sleep 3006',
    );
    expect(step.details.timedOut).toBe(true);
    expect(step.details.stoppedInBackground).toBeGreaterThanOrEqual(4);
    expect(step.observation).toMatch(/\[also stopped \d+ background processes this command started\]/);
    const left = running();
    for (const n of [3002, 3003, 3004, 3005, 3006]) expect(left.filter((c) => c.includes(`sleep ${n}`))).toEqual([]);
    expect(left.filter((c) => c === 'sleep 3001')).toHaveLength(1);
    // The shell is the same one, at its prompt, and runs the next step.
    // (bash reports the jobs it lost there, as it would to a person.)
    expect((await t.step('echo next')).observation).toMatch(/^next\n(\[\d+\][-+ ] +Killed .*\n)*agent@sandbox:~\$$/);
  }, 30_000);

  it('bounds home and /tmp in total, not only per file, at the promised sizes', async () => {
    const defaults = await open({});
    const sizes = await defaults.step('df -k --output=size ~ /tmp | tail -n 2 | tr "\\n" " "');
    // 256 MiB of home and 128 MiB of /tmp, in KiB.
    expect(sizes.observation).toMatch(/^\s*262144\s+131072\s/);
    await env?.dispose();
    // Small figures keep the test cheap: files of at most 4 MiB each, 6 MiB in all per folder.
    const t = await open({ maxFileBytes: 4 * 2 ** 20, maxHomeBytes: 6 * 2 ** 20, maxTmpBytes: 6 * 2 ** 20 });
    for (const dir of ['~', '/tmp']) {
      const step = await t.step(`for f in a b c; do head -c 4M /dev/zero > ${dir}/$f; done; du -sk ${dir} | cut -f1`);
      expect(step.observation).toMatch(/No space left on device/);
      const kib = Number(step.observation.split('\n').at(-2));
      expect(kib).toBeGreaterThan(4096);
      expect(kib).toBeLessThanOrEqual(6144);
    }
  }, 30_000);

  it('refuses TIOCSTI, so no program can type into the shell\'s next prompt; other terminal calls work', async () => {
    const t = await open({});
    const typed = 'touch ~/typed-by-tiocsti\n';
    const push = await t.step(`python3 -c 'import fcntl, termios; [fcntl.ioctl(0, termios.TIOCSTI, c.encode()) for c in "${typed.replace('\n', '\\n')}"]'`);
    expect(push.observation).toMatch(/PermissionError: \[Errno 1\] Operation not permitted/);
    expect((await t.step('ls ~; stty size')).observation).toBe('40 120\nagent@sandbox:~$');
  }, 30_000);

  it('refuses a process more memory than the limit', async () => {
    const t = await open({ maxMemoryBytes: 512 * 1024 * 1024 });
    // tail keeps a line without a newline whole: 1 GiB of zeros needs 1 GiB of memory.
    const step = await t.step('head -c 1G /dev/zero | tail | wc -c; echo "tail=${PIPESTATUS[1]}"');
    expect(step.observation).toMatch(/tail: memory exhausted/);
    expect(step.observation).toMatch(/tail=1/);
  }, 30_000);

  it('shows only what a shell needs: no /opt, no TLS keys, and system files not owned by the sandbox user', async () => {
    const t = await open({});
    const step = await t.step('ls -d /opt /etc/ssl/private 2>&1 | sort; test -O /usr/bin/env && echo owns-system-files || echo system-files-not-ours');
    expect(step.observation).toMatch(/ls: cannot access '\/etc\/ssl\/private': No such file or directory/);
    expect(step.observation).toMatch(/ls: cannot access '\/opt': No such file or directory/);
    expect(step.observation).toMatch(/system-files-not-ours/);
  }, 30_000);

  it('ends a step only when the shell is back at its prompt, whatever a command prints', async () => {
    const t = await open({});
    const readable = await t.step('cat /etc/worldloom/bashrc | wc -c');
    expect(readable.observation).toMatch(/^0\n/);
    // The nonce is in PS1 (the shell must print it): a program that learns it and prints the marker itself…
    const steal = 'n=$(printf %s "$PS1" | grep -o "worldloom;[0-9a-f]*" | cut -d";" -f2)';
    await t.step(steal);
    const forged = await t.step(`sh -c "printf '\\033]777;worldloom;$n;0\\007'; sleep 1; echo after the forged marker; exit 3"`);
    // …does not end the step: its later output and its real exit status belong to it.
    expect(forged.observation).toMatch(/after the forged marker\nagent@sandbox:~\$$/);
    expect(forged.details.exitStatus).toBe(3);
    // The shell's own printf is no better: the shell is busy, then waits for sleep, never at its prompt.
    const builtin = await t.step(`printf '\\033]777;worldloom;%s;0\\007' "$n"; sleep 1; echo after the builtin marker; false`);
    expect(builtin.observation).toMatch(/after the builtin marker\nagent@sandbox:~\$$/);
    expect(builtin.details.exitStatus).toBe(1);
    expect((await t.step('echo next')).observation).toBe('next\nagent@sandbox:~$');
  }, 30_000);

  it('keeps the first lines of long output, as its note says, past the emulator\'s scrollback', async () => {
    const t = await open({ maxOutputBytes: 1024 * 1024 });
    const all = await t.step('seq 1 20000');
    const lines = all.observation.split('\n');
    expect(lines.slice(0, 3)).toEqual(['1', '2', '3']);
    expect(lines.at(-2)).toBe('20000');
    const cut = await t.step('seq 1 300000');
    const kept = cut.observation.split('\n');
    expect(kept.slice(0, 2)).toEqual(['1', '2']);
    expect(cut.observation).toMatch(/\[output truncated: only the first 1048576 bytes of \d+ are shown\]\nagent@sandbox:~\$$/);
  }, 30_000);
});
