import { describe, expect, it } from 'vitest';
import { perturb } from '../../../testing/perturbation-fixtures';
import { perturbationCatalog } from '../registry';

const prompt = 'agent@atlas:~/app$';

describe('terminal perturbations', () => {
  it('command not found: the shell error for the action\'s program, status 127, echo and prompt kept', () => {
    const out = perturb('terminal.command-not-found', { action: 'rg TODO src/' });
    expect(out).toBe(`agent@atlas:~/app$ ls -la /srv/app\nbash: rg: command not found\n[exit code: 127]\n${prompt}\n`);
    expect(perturb('terminal.command-not-found', { params: { shell: 'zsh', command: 'jq' } })).toContain('zsh: command not found: jq\n');
    expect(perturb('terminal.command-not-found', { params: { shell: 'sh' } })).toContain('sh: 1: ls: not found');
    expect(perturb('terminal.command-not-found', { params: { command: 'htop', installHint: 'htop' } })).toContain(
      "Command 'htop' not found, but can be installed with:\nsudo apt install htop",
    );
  });

  it('permission denied: coreutils wording per program, ls exits 2, others 1', () => {
    expect(perturb('terminal.permission-denied')).toContain("ls: cannot open directory '/srv/app': Permission denied\n[exit code: 2]");
    const cat = perturb('terminal.permission-denied', { action: 'cat /etc/shadow' });
    expect(cat).toContain('cat: /etc/shadow: Permission denied\n[exit code: 1]');
    expect(cat).not.toContain('package.json');
    expect(perturb('terminal.permission-denied', { action: 'mkdir /opt/tool', params: { path: '/opt/tool' } })).toContain(
      "mkdir: cannot create directory '/opt/tool': Permission denied",
    );
  });

  it('disk full: keeps the requested share of output, then ENOSPC for the written file', () => {
    const out = perturb('terminal.disk-full', { action: 'cp backup.tar /mnt/usb/backup.tar', params: { keepFraction: 0.5 } });
    expect(out).toContain("cp: error writing '/mnt/usb/backup.tar': No space left on device\n[exit code: 1]");
    expect(out).toContain('total 32');
    expect(out).not.toContain('README.md');
    expect(perturb('terminal.disk-full', { params: { keepFraction: 0 } })).not.toContain('total 32');
  });

  it('timeout: a cut that depends on the seed, status 124, or "Killed" and 137 for SIGKILL', () => {
    const term = perturb('terminal.timeout-partial-output');
    // The note and the default limit are the real terminal's own (common/terminal-timeout.ts).
    expect(term).toMatch(/\n\[timed out after 15s: the command was stopped\]\n\[exit code: 124\]\nagent@atlas:~\/app\$\n$/);
    expect(perturbationCatalog.byId('terminal.timeout-partial-output')!.instruction({ seconds: 15, keepFraction: 0.4, signal: 'TERM' }, { domain: 'terminal', action: 'make' })).toContain('15-second limit');
    expect(term).not.toContain('README.md');
    const killed = perturb('terminal.timeout-partial-output', { params: { signal: 'KILL', keepFraction: 0.6 } });
    expect(killed).toMatch(/\nKilled\n\[exit code: 137\]/);
    const cuts = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => perturb('terminal.timeout-partial-output', { seed, params: { keepFraction: 0.5 } })));
    expect(cuts.size).toBeGreaterThan(1);
  });

  it('interactive prompt: ends at the prompt with no exit status and no shell prompt', () => {
    const sudo = perturb('terminal.interactive-prompt', { params: { user: 'dana' } });
    expect(sudo).toBe('agent@atlas:~/app$ ls -la /srv/app\n[sudo] password for dana: ');
    const apt = perturb('terminal.interactive-prompt', { params: { prompt: 'apt-confirm' } });
    expect(apt).toMatch(/additional disk space will be used\.\nDo you want to continue\? \[Y\/n\] $/);
    const ssh = (seed: number) => perturb('terminal.interactive-prompt', { seed, params: { prompt: 'ssh-host-key', host: 'db1' } });
    expect(ssh(1)).toMatch(/^The authenticity of host 'db1 \(10\.\d+\.\d+\.\d+\)' can't be established\.$/m);
    expect(ssh(1)).toMatch(/ED25519 key fingerprint is SHA256:[A-Za-z0-9+/]{43}\./);
    expect(ssh(1)).toMatch(/\(yes\/no\/\[fingerprint\]\)\? $/);
    expect(ssh(1)).not.toBe(ssh(2));
    expect(perturb('terminal.interactive-prompt', { action: 'cp a.txt b.txt', params: { prompt: 'overwrite' } })).toMatch(/cp: overwrite 'b\.txt'\? $/);
  });

  it('encoding mess: a setlocale warning and UTF-8 read as Latin-1, or ? at a seeded rate', () => {
    const out = perturb('terminal.encoding-mess');
    expect(out).toContain('bash: warning: setlocale: LC_ALL: cannot change locale (en_US.UTF-8)\ntotal 32');
    expect(out).toContain('rÃ©sumÃ©.pdf');
    expect(out).toContain('naÃ¯ve_bayes');
    expect(out).toContain('[exit code: 0]');
    const replaced = perturb('terminal.encoding-mess', { params: { style: 'replacement', locale: '' } });
    expect(replaced).toContain('r?sum?.pdf');
    expect(replaced).not.toContain('setlocale');
    const partial = new Set([1, 2, 3, 4, 5, 6].map((seed) => perturb('terminal.encoding-mess', { seed, params: { style: 'replacement', rate: 0.5 } })));
    expect(partial.size).toBeGreaterThan(1);
  });

  it('timeout on one-line output: cut mid-line, and the stop is always visible', () => {
    const line = 'Downloading https://example.org/archive.tar.gz (52.1 MB)';
    const cut = perturb('terminal.timeout-partial-output', { observation: `${line}\n`, action: 'wget https://example.org/archive.tar.gz', params: { keepFraction: 0.5 } });
    const [first, note] = cut.split('\n');
    expect(line.startsWith(first!)).toBe(true);
    expect(first!.length).toBeGreaterThan(0);
    expect(first!.length).toBeLessThan(line.length);
    expect(note).toBe('[timed out after 15s: the command was stopped]');
    expect(perturb('terminal.timeout-partial-output', { observation: `${line}\n`, params: { keepFraction: 0, seconds: 60 } })).toBe('[timed out after 60s: the command was stopped]\n');
  });

  it('command not found knows a shell builtin cannot be missing', () => {
    const kind = perturbationCatalog.byId('terminal.command-not-found')!;
    const defaults = kind.params.parse({});
    expect(kind.impossibleAt!(defaults, { domain: 'terminal', action: 'echo hi' })).toMatch(/`echo` is a shell builtin/);
    expect(kind.impossibleAt!(defaults, { domain: 'terminal', action: '$ cd /tmp && ls' })).toMatch(/`cd`/);
    expect(kind.impossibleAt!(defaults, { domain: 'terminal', action: 'rg TODO' })).toBeNull();
    expect(kind.impossibleAt!({ ...defaults, command: 'jq' }, { domain: 'terminal', action: 'echo hi' })).toBeNull();
  });

  it('keeps an observation without echo, status or prompt free of them', () => {
    const bare = 'total 0\n';
    expect(perturb('terminal.command-not-found', { observation: bare, action: 'fd .' })).toBe('bash: fd: command not found\n');
  });
});
