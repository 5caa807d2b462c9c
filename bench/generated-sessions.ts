// Agent sessions written at bench time, laid out where each agent keeps them under a Linux
// home folder: Claude Code (~/.claude/projects), Codex (~/.codex/sessions), Gemini CLI
// (~/.gemini/tmp), Qwen Code (~/.qwen/projects), Roo Code (VS Code's global storage, the
// Cline task format) and goose (~/.local/share/goose/sessions, its .jsonl files), in each one's own file shape, with shell calls and outputs of realistic
// sizes, until they weigh what was asked for.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface GeneratedSessions {
  files: string[];
  bytes: number;
  toolCalls: number;
}

/** Claude Code, Codex, Gemini CLI, Qwen Code, Roo Code (Cline's format), goose: each in turn. */
const AGENTS = 6;

const output = (n: number, size: number) => `line ${n}: ${'ok '.repeat(Math.max(1, Math.floor(size / 3)))}`.slice(0, size);

function claudeSession(s: number, calls: number, outputBytes: number): string {
  const base = { isSidechain: false, userType: 'external', cwd: `/home/dev/project-${s % 20}`, sessionId: `claude-${s}`, version: '2.0.14' };
  const lines: string[] = [JSON.stringify({ ...base, parentUuid: null, type: 'user', message: { role: 'user', content: `Task ${s}: find why the build fails` }, uuid: `u${s}-0`, timestamp: '2026-01-01T00:00:00.000Z' })];
  let parent = `u${s}-0`;
  for (let c = 0; c < calls; c++) {
    const use = `u${s}-${c}-a`;
    const result = `u${s}-${c}-r`;
    lines.push(JSON.stringify({ ...base, parentUuid: parent, type: 'assistant', message: { id: `m${c}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${s}_${c}`, name: 'Bash', input: { command: `grep -rn needle-${c} src/`, description: 'search' } }] }, uuid: use, timestamp: '2026-01-01T00:00:01.000Z' }));
    lines.push(JSON.stringify({ ...base, parentUuid: use, type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${s}_${c}`, content: output(c, outputBytes) }] }, uuid: result, timestamp: '2026-01-01T00:00:02.000Z' }));
    parent = result;
  }
  return lines.join('\n') + '\n';
}

function codexSession(s: number, calls: number, outputBytes: number): string {
  const lines: string[] = [
    JSON.stringify({ timestamp: '2026-01-01T00:00:00.000Z', type: 'session_meta', payload: { id: `codex-${s}`, cwd: `/home/dev/project-${s % 20}`, cli_version: '0.114.0' } }),
    JSON.stringify({ timestamp: '2026-01-01T00:00:00.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `Task ${s}: list what changed` }] } }),
  ];
  for (let c = 0; c < calls; c++) {
    lines.push(JSON.stringify({ timestamp: '2026-01-01T00:00:01.000Z', type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: `git log -n ${c + 1}`, workdir: `/home/dev/project-${s % 20}` }), call_id: `call_${s}_${c}` } }));
    lines.push(JSON.stringify({ timestamp: '2026-01-01T00:00:02.000Z', type: 'response_item', payload: { type: 'function_call_output', call_id: `call_${s}_${c}`, output: output(c, outputBytes) } }));
  }
  return lines.join('\n') + '\n';
}

function geminiSession(s: number, calls: number, outputBytes: number): string {
  const messages: unknown[] = [{ id: 'm0', timestamp: '2026-01-01T00:00:00.000Z', type: 'user', content: `Task ${s}: count the lines` }];
  for (let c = 0; c < calls; c++) {
    messages.push({
      id: `m${c + 1}`,
      timestamp: '2026-01-01T00:00:01.000Z',
      type: 'gemini',
      content: '',
      model: 'gemini-2.5-pro',
      toolCalls: [{ id: `sh-${c}`, name: 'run_shell_command', args: { command: `wc -l file-${c}` }, result: [{ functionResponse: { id: `sh-${c}`, name: 'run_shell_command', response: { output: output(c, outputBytes) } } }], status: 'success', timestamp: '2026-01-01T00:00:02.000Z' }],
    });
  }
  return JSON.stringify({ sessionId: `gemini-${s}`, projectHash: `p${s % 20}`, startTime: '2026-01-01T00:00:00.000Z', lastUpdated: '2026-01-01T00:01:00.000Z', messages }, null, 2);
}

function qwenSession(s: number, calls: number, outputBytes: number): string {
  const base = { sessionId: `qwen-${s}`, cwd: `/home/dev/project-${s % 20}`, version: '0.2.1', timestamp: '2026-01-01T00:00:00.000Z' };
  const rec = (uuid: string, parentUuid: string | null, type: string, parts: unknown[]) => JSON.stringify({ uuid, parentUuid, ...base, type, message: { role: type === 'assistant' ? 'model' : 'user', parts } });
  const lines = [rec(`q${s}-0`, null, 'user', [{ text: `Task ${s}: how big is the build?` }])];
  let parent = `q${s}-0`;
  for (let c = 0; c < calls; c++) {
    const id = `call_${s}_${c}`;
    lines.push(rec(`q${s}-${c}-a`, parent, 'assistant', [{ functionCall: { id, name: 'run_shell_command', args: { command: `du -sh dir-${c}` } } }]));
    lines.push(rec(`q${s}-${c}-r`, `q${s}-${c}-a`, 'tool_result', [{ functionResponse: { id, name: 'run_shell_command', response: { output: output(c, outputBytes) } } }]));
    parent = `q${s}-${c}-r`;
  }
  return lines.join('\n') + '\n';
}

function clineSession(s: number, calls: number, outputBytes: number): string {
  const env = { type: 'text', text: `<environment_details>\n# Current Working Directory (/home/dev/project-${s % 20}) Files\nREADME.md\n</environment_details>` };
  const messages: unknown[] = [{ role: 'user', content: [{ type: 'text', text: `<task>\nTask ${s}: check the tests\n</task>` }, env] }];
  for (let c = 0; c < calls; c++) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `call_${s}_${c}`, name: 'execute_command', input: { command: `npm test -- part-${c}` } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `call_${s}_${c}`, content: output(c, outputBytes) }, env] });
  }
  return JSON.stringify(messages);
}

function gooseSession(s: number, calls: number, outputBytes: number): string {
  const message = (role: string, created: number, content: unknown[]) => JSON.stringify({ id: null, role, created, content, metadata: { userVisible: true, agentVisible: true } });
  const lines = [
    JSON.stringify({ working_dir: `/home/dev/project-${s % 20}`, description: `Task ${s}`, schedule_id: null, message_count: 1 + 2 * calls, total_tokens: null, input_tokens: null, output_tokens: null }),
    message('user', 1767225600, [{ type: 'text', text: `Task ${s}: find the slow test` }]),
  ];
  for (let c = 0; c < calls; c++) {
    const id = `toolu_${s}_${c}`;
    lines.push(message('assistant', 1767225601, [{ type: 'toolRequest', id, toolCall: { status: 'success', value: { name: 'developer__shell', arguments: { command: `pytest -k case_${c}` } } } }]));
    lines.push(message('user', 1767225602, [{ type: 'toolResponse', id, toolResult: { status: 'success', value: { content: [{ type: 'text', text: output(c, outputBytes), annotations: { audience: ['assistant'] } }], isError: false } } }]));
  }
  return lines.join('\n') + '\n';
}

/** Writes at least `count` sessions and `bytes` in all under `home`, the agents in turn. */
export function writeGeneratedSessions(home: string, count: number, bytes: number): GeneratedSessions {
  const perSession = Math.ceil(bytes / count);
  // One call and its result take about this much besides the output itself.
  const outputBytes = 1500;
  const calls = Math.max(1, Math.round(perSession / (outputBytes + 600)));
  const files: string[] = [];
  let written = 0;
  let toolCalls = 0;
  for (let s = 0; s < count || written < bytes; s++) {
    const kind = s % AGENTS;
    const path = [
      () => join(home, '.claude/projects', `-home-dev-project-${s % 20}`, `session-${s}.jsonl`),
      () => join(home, '.codex/sessions/2026/01', String((s % 28) + 1).padStart(2, '0'), `rollout-2026-01-01T00-00-00-${s}.jsonl`),
      () => join(home, '.gemini/tmp', `p${s % 20}`, 'chats', `session-${s}.json`),
      () => join(home, '.qwen/projects', `-home-dev-project-${s % 20}`, 'chats', `qwen-${s}.jsonl`),
      () => join(home, '.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks', `task-${s}`, 'api_conversation_history.json'),
      () => join(home, '.local/share/goose/sessions', `goose-${s}.jsonl`),
    ][kind]!();
    const text = [claudeSession, codexSession, geminiSession, qwenSession, clineSession, gooseSession][kind]!(s, calls, outputBytes);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    files.push(path);
    written += Buffer.byteLength(text);
    toolCalls += calls;
  }
  return { files, bytes: written, toolCalls };
}
