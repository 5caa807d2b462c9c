import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeCodeSessions } from '../formats/claude-code/sessions';
import { codexSessions } from '../formats/codex-rollout/sessions';
import { copilotCliSessions } from '../formats/copilot-cli/sessions';
import { geminiCliSessions } from '../formats/gemini-cli/sessions';
import { SESSION_HOME_FILES, writeSessionHome } from '../testing/session-home';
import { scanSession } from './count-tool-calls';
import { findSessions, sessionFormats } from './find-sessions';

describe('finding the sessions agents keep on this machine', () => {
  it('lists every session in the default folders newest first, with agent, project, date, tool calls and size', async () => {
    const home = writeSessionHome();
    const found = await findSessions({ home, platform: 'linux', env: {} });
    expect(found.sessions.map((s) => [s.agent, s.toolCalls])).toEqual([...SESSION_HOME_FILES].reverse().map((f) => [f.agent, f.toolCalls]));
    const claude = found.sessions.find((s) => s.agent === 'Claude Code')!;
    expect(claude).toMatchObject({ format: 'claude-code', project: '/work/calc', path: join(home, SESSION_HOME_FILES[2]!.at), modified: '2026-06-01T12:02:00.000Z' });
    expect(claude.bytes).toBeGreaterThan(1000);
    // The project comes from the session's own cwd; gemini-cli names only a folder for its project.
    expect(found.sessions.find((s) => s.path.includes('2025/10/02'))!.project).toBe('/repo');
    expect(found.sessions.find((s) => s.agent === 'Gemini CLI')!.project).toBe('9f0e11');
    // Every folder looked in is said, the ones that are not there too.
    expect(found.folders).toEqual(
      expect.arrayContaining([
        { agent: 'Claude Code', format: 'claude-code', path: join(home, '.claude/projects'), from: 'default', exists: true, sessions: 1 },
        { agent: 'Claude Code', format: 'claude-code', path: join(home, '.config/claude/projects'), from: 'default', exists: false, sessions: 0 },
        { agent: 'Codex', format: 'codex-rollout', path: join(home, '.codex/sessions'), from: 'default', exists: true, sessions: 2 },
        { agent: 'Gemini CLI', format: 'gemini-cli', path: join(home, '.gemini/tmp'), from: 'default', exists: true, sessions: 1 },
      ]),
    );
    expect(found.problems).toEqual([]);
  });

  it('looks where the environment variables each agent honours point instead of the defaults', async () => {
    const home = writeSessionHome();
    const elsewhere = mkdtempSync(join(tmpdir(), 'wl-agent-dirs-'));
    mkdirSync(join(elsewhere, 'codex/sessions/2026/01/01'), { recursive: true });
    writeFileSync(join(elsewhere, 'codex/sessions/2026/01/01/rollout-x.jsonl'), '{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}","call_id":"c1"}}\n');
    const found = await findSessions({ home, platform: 'linux', env: { CODEX_HOME: join(elsewhere, 'codex'), CLAUDE_CONFIG_DIR: `${join(elsewhere, 'a')},${join(elsewhere, 'b')}`, GEMINI_CLI_HOME: join(elsewhere, 'g') } });
    // Agents whose variables are not set (Cline's editors) are still looked for in their defaults.
    expect(found.folders.filter((f) => f.from !== 'default').map((f) => [f.agent, f.path, f.from])).toEqual([
      ['Claude Code', join(elsewhere, 'a/projects'), 'CLAUDE_CONFIG_DIR'],
      ['Claude Code', join(elsewhere, 'b/projects'), 'CLAUDE_CONFIG_DIR'],
      ['Codex', join(elsewhere, 'codex/sessions'), 'CODEX_HOME'],
      ['Codex', join(elsewhere, 'codex/archived_sessions'), 'CODEX_HOME'],
      ['Gemini CLI', join(elsewhere, 'g/.gemini/tmp'), 'GEMINI_CLI_HOME'],
    ]);
    expect(found.sessions.map((s) => [s.agent, s.toolCalls])).toEqual([['Codex', 1]]);
  });

  it('writes Windows paths on Windows', () => {
    const folders = claudeCodeSessions.folders({ home: 'C:\\Users\\ada', platform: 'win32', env: {} });
    expect(folders.map((f) => f.path)).toEqual(['C:\\Users\\ada\\.claude\\projects', 'C:\\Users\\ada\\.config\\claude\\projects']);
  });

  it('every format that says where its sessions are can also import them', () => {
    expect(sessionFormats().map((f) => f.format)).toEqual(expect.arrayContaining(['claude-code', 'codex-rollout', 'gemini-cli']));
  });
});

describe('counting tool calls without importing', () => {
  const write = (text: string) => {
    const file = join(mkdtempSync(join(tmpdir(), 'wl-count-')), 's.jsonl');
    writeFileSync(file, text);
    return file;
  };

  it('counts a call once per id when an agent rewrites the message that holds it', async () => {
    const line = (id: string) => `{"id":"m","toolCalls":[{"id":"${id}","result":[{"functionResponse":{"id":"${id}","name":"x"}}]}]}`;
    expect((await scanSession(write([line('a'), line('a'), line('b')].join('\n')), geminiCliSessions)).toolCalls).toBe(2);
  });

  it("counts Copilot CLI's calls that ran, one per tool.execution_complete, wherever toolCallId sits in its data", async () => {
    const ev = (type: string, data: Record<string, unknown>) => JSON.stringify({ type, data, id: 'e', timestamp: '2026-04-02T09:00:00.000Z', parentId: null });
    const text = [
      ev('assistant.message', { content: '', toolRequests: [{ toolCallId: 't1', name: 'bash', arguments: { command: 'ls' } }, { toolCallId: 't2', name: 'view', arguments: { path: 'a' } }] }),
      ev('tool.execution_start', { toolCallId: 't1', toolName: 'bash', arguments: { command: 'ls' } }),
      ev('tool.execution_complete', { toolCallId: 't1', success: true, result: { content: 'a' } }),
      ev('tool.execution_complete', { model: 'claude-sonnet-4.6', turnId: '0', toolCallId: 't2', success: true, result: { content: 'the "tool.execution_complete" event' } }),
    ].join('\n');
    expect((await scanSession(write(text), copilotCliSessions)).toolCalls).toBe(2);
  });

  it('does not count a call output, a stop reason or a mention of the word', async () => {
    const text = [
      '{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}","call_id":"c1"}}',
      '{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"the type was \\"function_call\\""}}',
    ].join('\n');
    expect((await scanSession(write(text), codexSessions)).toolCalls).toBe(1);
    const claude = '{"message":{"stop_reason":"tool_use","content":[{"type":"tool_use","id":"t1","name":"Bash"}]}}\n{"type":"user","message":{"content":"what is \\"tool_use\\"?"}}';
    expect((await scanSession(write(claude), claudeCodeSessions)).toolCalls).toBe(1);
  });

  it('finds calls that straddle the chunks it reads, in a session larger than one chunk', async () => {
    const calls = 3000;
    const lines: string[] = [];
    for (let i = 0; i < calls; i++) lines.push(`{"message":{"content":[{"type":"tool_use","id":"t${i}","name":"Bash","input":{"command":"${'x'.repeat(i % 700)}"}}]}}`);
    const file = write(lines.join('\n'));
    const scan = await scanSession(file, claudeCodeSessions, 100);
    expect(scan.toolCalls).toBe(calls);
    expect(Buffer.byteLength(scan.head)).toBe(100);
  });
});
