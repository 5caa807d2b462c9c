import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SESSION_HOME_FILES, SESSION_SECRETS, writeSessionHome, writeSessionWithSecrets } from '../../testing/session-home';
import { CLI_BIN } from '../../testing/cli-bin';

const bin = CLI_BIN;

// Every call starts the CLI afresh (a few seconds each on a busy machine).
describe('worldloom sessions', { timeout: 240_000 }, () => {
  const home = writeSessionHome();
  const secretFile = writeSessionWithSecrets(home);
  // Nothing of the machine's own agents: only the home folder written here.
  const env = { ...process.env, HOME: home, USERPROFILE: home, CLAUDE_CONFIG_DIR: '', CODEX_HOME: '', GEMINI_CLI_HOME: '' };
  const run = (...args: string[]) => execFileSync(process.execPath, [bin, ...args], { encoding: 'utf8', env });

  it('lists the sessions newest first with the folders it looked in, as a table and as JSON', () => {
    const listed = JSON.parse(run('sessions', '--json')) as { folders: { path: string; exists: boolean }[]; sessions: { agent: string; toolCalls: number; project: string | null; path: string }[] };
    expect(listed.sessions.map((s) => [s.agent, s.toolCalls])).toEqual([['Claude Code', 1], ...[...SESSION_HOME_FILES].reverse().map((f) => [f.agent, f.toolCalls])]);
    // aider keeps its history in each project, so the home folder itself is looked in for it.
    expect(listed.folders.filter((f) => f.exists).map((f) => f.path)).toEqual([join(home, '.claude/projects'), join(home, '.codex/sessions'), join(home, '.gemini/tmp'), home]);
    const text = run('sessions', '--agent', 'codex');
    expect(text).toContain(`Codex: ${join(home, '.codex/sessions')}`);
    expect(text).toMatch(/DATE\s+AGENT\s+TOOL CALLS\s+SIZE\s+PROJECT\s+FILE/);
    expect(text).toContain('/repo');
    expect(text).not.toContain('Claude Code  ');
  });

  it("imports a project's sessions, scrubbed: the secret and the address never reach the workspace", () => {
    const ws = join(mkdtempSync(join(tmpdir(), 'wl-sessions-')), 'w.worldloom');
    const out = run('sessions', '--project', '/work/keys', '--import', '--workspace', ws, '--scrub');
    const [report] = out.trim().split('\n').map((l) => JSON.parse(l) as { file: string; imported: number; scrubbed: Record<string, number> });
    expect(report).toMatchObject({ file: 'secret-session.jsonl', imported: 1, scrubbed: { apiKey: 1, email: 1, password: 0, ip: 0 } });
    const [trajectory] = JSON.parse(run('ls', '--workspace', ws, '--json')) as { id: string }[];
    const { nodes } = JSON.parse(run('ls', '--workspace', ws, '--trajectory', trajectory!.id, '--json')) as { nodes: { action: string }[] };
    expect(nodes.map((n) => n.action)).toContain('cat .env');
    const stored = [ws, `${ws}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f).toString('latin1')).join('');
    expect(stored).toContain('[REDACTED_API_KEY]');
    expect(stored).not.toContain(SESSION_SECRETS.apiKey);
    expect(stored).not.toContain(SESSION_SECRETS.email);
    expect(readFileSync(secretFile, 'utf8')).toContain(SESSION_SECRETS.apiKey);
  });

  it('says there is nothing to import when no session matches, and needs a workspace to import into', () => {
    const none = spawnSync(process.execPath, [bin, 'sessions', '--project', '/nowhere', '--import', '--workspace', join(mkdtempSync(join(tmpdir(), 'wl-s-')), 'w.worldloom')], { encoding: 'utf8', env });
    expect(none.status).toBe(1);
    expect(none.stderr).toContain('Nothing to import: no session matched.');
    const noWorkspace = spawnSync(process.execPath, [bin, 'sessions', '--import'], { encoding: 'utf8', env });
    expect(noWorkspace.status).not.toBe(0);
    expect(noWorkspace.stderr).toContain('--import needs --workspace FILE');
  });
});
