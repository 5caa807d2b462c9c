// A home folder holding agents' sessions where each agent keeps them, for the tests of the
// session search (unit, CLI, e2e): the project's own format fixtures, copied into
// ~/.claude/projects, ~/.codex/sessions and ~/.gemini/tmp with times a minute apart.
import { copyFileSync, mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const formats = fileURLToPath(new URL('../formats/', import.meta.url));

/** Where each fixture goes under the home folder, oldest first. */
export const SESSION_HOME_FILES: readonly { fixture: string; at: string; agent: string; toolCalls: number }[] = [
  { fixture: 'codex-rollout/fixtures/codex-session-2025-08.jsonl', at: '.codex/sessions/2025/08/20/rollout-2025-08-20T10-00-00-aaaa.jsonl', agent: 'Codex', toolCalls: 1 },
  { fixture: 'gemini-cli/fixtures/gemini-cli-session-log.jsonl', at: '.gemini/tmp/9f0e11/chats/session-2026-05-02T09-00-b41c.jsonl', agent: 'Gemini CLI', toolCalls: 4 },
  { fixture: 'claude-code/fixtures/claude-code-session.jsonl', at: '.claude/projects/-home-dev-app/5f3a-session.jsonl', agent: 'Claude Code', toolCalls: 5 },
  { fixture: 'codex-rollout/fixtures/codex-rollout-2025-10-02.jsonl', at: '.codex/sessions/2025/10/02/rollout-2025-10-02T09-00-00-bbbb.jsonl', agent: 'Codex', toolCalls: 3 },
];

/** A fresh home folder with the sessions above; the last is the newest. */
export function writeSessionHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'wl-session-home-'));
  const start = Date.parse('2026-06-01T12:00:00Z') / 1000;
  SESSION_HOME_FILES.forEach((f, i) => {
    const to = join(home, f.at);
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(join(formats, f.fixture), to);
    utimesSync(to, start + i * 60, start + i * 60);
  });
  return home;
}

/** A secret and an address a scrubbed import must not keep. */
export const SESSION_SECRETS = { apiKey: 'sk-proj-Zq8v3Kx0Lm5Np2Rt7Wy4Bc6De9Fg1Hj', email: 'ada.lovelace@analytical.example.org.uk' } as const;

/** A Claude Code session (project /work/keys) whose one command printed a secret and an e-mail address. */
export function writeSessionWithSecrets(home: string): string {
  const base = { isSidechain: false, userType: 'external', cwd: '/work/keys', sessionId: 'secret-session', version: '2.0.14' };
  const lines = [
    { ...base, parentUuid: null, type: 'user', message: { role: 'user', content: 'Which key does the app use?' }, uuid: 's1', timestamp: '2026-06-02T10:00:00.000Z' },
    { ...base, parentUuid: 's1', type: 'assistant', message: { id: 'm2', type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_s', name: 'Bash', input: { command: 'cat .env' } }] }, uuid: 's2', timestamp: '2026-06-02T10:00:01.000Z' },
    { ...base, parentUuid: 's2', type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_s', content: `OPENAI_API_KEY=${SESSION_SECRETS.apiKey}\nOWNER=${SESSION_SECRETS.email}` }] }, uuid: 's3', timestamp: '2026-06-02T10:00:02.000Z' },
  ];
  const path = join(home, '.claude/projects/-work-keys/secret-session.jsonl');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return path;
}
