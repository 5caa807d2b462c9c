// Agent sessions written at bench time, laid out where each agent keeps them under a Linux
// home folder: Claude Code (~/.claude/projects), Codex (~/.codex/sessions), Gemini CLI
// (~/.gemini/tmp), Qwen Code (~/.qwen/projects), Roo Code (VS Code's global storage, the
// Cline task format), goose (~/.local/share/goose/sessions, its .jsonl files), opencode
// (~/.local/share/opencode/storage, a file per session, message and part), Kimi CLI
// (~/.kimi/sessions), GitHub Copilot CLI (~/.copilot/session-state) and aider (a
// .aider.chat.history.md in a project folder under the home folder), in each one's own file
// shape, with shell calls and outputs of realistic sizes, until they weigh what was asked for.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeOpencodeStorage, type OpencodeSession } from '../src-main/testing/opencode-sessions';

export interface GeneratedSessions {
  /** The sessions as a listing finds them: one file each (opencode's, the file that names the session). */
  files: string[];
  /** Every file written, a session over many files (opencode's) with all of them: what the raw read reads. */
  allFiles: string[];
  bytes: number;
  toolCalls: number;
}

/** Claude Code, Codex, Gemini CLI, Qwen Code, Roo Code (Cline's format), goose, opencode, Kimi CLI, Copilot CLI, aider: each in turn. */
const AGENTS = 10;

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

function kimiSession(s: number, calls: number, outputBytes: number): string {
  const lines = [
    JSON.stringify({ role: '_system_prompt', content: `You are Kimi CLI.\n\n## Working Directory\n\nThe current working directory is \`/home/dev/project-${s % 20}\`.` }),
    JSON.stringify({ role: '_checkpoint', id: 0 }),
    JSON.stringify({ role: 'user', content: `Task ${s}: why is the service slow?` }),
  ];
  for (let c = 0; c < calls; c++) {
    const id = `Shell:${c}`;
    lines.push(JSON.stringify({ role: 'assistant', content: [{ type: 'think', think: 'Look at the logs.' }], tool_calls: [{ type: 'function', id, function: { name: 'Shell', arguments: JSON.stringify({ command: `tail -n ${c + 10} app.log` }) } }] }));
    lines.push(JSON.stringify({ role: 'tool', content: [{ type: 'text', text: '<system>Command executed successfully.</system>' }, { type: 'text', text: output(c, outputBytes) }], tool_call_id: id }));
    lines.push(JSON.stringify({ role: '_usage', token_count: 1000 + c }));
  }
  return lines.join('\n') + '\n';
}

function copilotSession(s: number, calls: number, outputBytes: number): string {
  let n = 0;
  const ev = (type: string, data: Record<string, unknown>) => JSON.stringify({ type, data, id: `e${s}-${++n}`, timestamp: '2026-01-01T00:00:00.000Z', parentId: n > 1 ? `e${s}-${n - 1}` : null });
  const lines = [
    ev('session.start', { sessionId: `copilot-${s}`, version: 1, producer: 'copilot-agent', copilotVersion: '1.0.7', startTime: '2026-01-01T00:00:00.000Z', context: { cwd: `/home/dev/project-${s % 20}` } }),
    ev('user.message', { content: `Task ${s}: what does the config set?`, attachments: [] }),
  ];
  for (let c = 0; c < calls; c++) {
    const id = `toolu_${s}_${c}`;
    lines.push(ev('assistant.message', { messageId: `m${c}`, content: '', toolRequests: [{ toolCallId: id, name: 'bash', arguments: { command: `cat conf-${c}.yaml`, description: 'Read config' } }] }));
    lines.push(ev('tool.execution_start', { toolCallId: id, toolName: 'bash', arguments: { command: `cat conf-${c}.yaml`, description: 'Read config' } }));
    lines.push(ev('tool.execution_complete', { toolCallId: id, success: true, result: { content: output(c, outputBytes) } }));
  }
  return lines.join('\n') + '\n';
}

/** aider's history of one session: each reply an applied SEARCH/REPLACE edit, its output the file's new text in the reply. */
function aiderSession(s: number, calls: number, outputBytes: number): string {
  const start = new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString().slice(0, 19).replace('T', ' ');
  const lines = ['', `# aider chat started at ${start}`, '', '> aider --model sonnet  ', '> Aider v0.86.1  ', ''];
  for (let c = 0; c < calls; c++) {
    lines.push(`#### task ${s}: make case ${c} pass  `, '', `Case ${c} needs the new value:`, '', `src/case_${c}.py`, '```python', '<<<<<<< SEARCH', `VALUE = ${c}`, '=======', `VALUE = ${c + 1}  # ${output(c, outputBytes - 60)}`, '>>>>>>> REPLACE', '```', '');
    lines.push('> Tokens: 2.1k sent, 120 received.  ', `> Applied edit to src/case_${c}.py  `, '');
  }
  return lines.join('\n') + '\n';
}

/** opencode's session: each assistant message one step of the model, its shell calls run together (up to 5), between step markers. */
function opencodeSession(s: number, calls: number, outputBytes: number): OpencodeSession {
  const id = `ses_bench${String(s).padStart(8, '0')}`;
  const t0 = 1_767_225_600_000 + s;
  const m = (n: number) => `msg_${String(s).padStart(8, '0')}${String(n).padStart(6, '0')}`;
  const messages: OpencodeSession['messages'] = [
    { info: { id: m(0), sessionID: id, role: 'user', time: { created: t0 }, agent: 'build', model: { providerID: 'anthropic', modelID: 'claude-sonnet-4' } }, parts: [{ id: `prt_${m(0)}_0`, messageID: m(0), sessionID: id, type: 'text', text: `Task ${s}: find the failing case` }] },
  ];
  for (let c = 0, n = 1; c < calls; n++) {
    const mid = m(n);
    const parts: OpencodeSession['messages'][number]['parts'] = [{ id: `prt_${mid}_0`, messageID: mid, sessionID: id, type: 'step-start', snapshot: 'b1e2' }];
    for (let k = 0; k < 5 && c < calls; k++, c++) {
      parts.push({ id: `prt_${mid}_${k + 1}`, messageID: mid, sessionID: id, type: 'tool', callID: `toolu_${s}_${c}`, tool: 'bash', state: { status: 'completed', input: { command: `go test -run Case${c}`, description: 'Runs one case' }, output: output(c, outputBytes), title: `go test -run Case${c}`, metadata: { exit: 0 }, time: { start: t0 + c, end: t0 + c + 1 } } });
    }
    parts.push({ id: `prt_${mid}_9`, messageID: mid, sessionID: id, type: 'step-finish', reason: 'tool-calls', cost: 0, tokens: { input: 1000, output: 50, reasoning: 0, cache: { read: 0, write: 0 } } });
    messages.push({ info: { id: mid, sessionID: id, role: 'assistant', time: { created: t0 + n }, parentID: m(0), modelID: 'claude-sonnet-4', providerID: 'anthropic', mode: 'build', agent: 'build', path: { cwd: `/home/dev/project-${s % 20}`, root: `/home/dev/project-${s % 20}` }, cost: 0, tokens: { input: 1000, output: 50, reasoning: 0, cache: { read: 0, write: 0 } } }, parts });
  }
  return { info: { id, version: '1.1.40', projectID: `p${s % 20}`, directory: `/home/dev/project-${s % 20}`, title: `Task ${s}`, time: { created: t0, updated: t0 + calls } }, messages };
}

/** Writes at least `count` sessions and `bytes` in all under `home`, the agents in turn. */
export function writeGeneratedSessions(home: string, count: number, bytes: number): GeneratedSessions {
  const perSession = Math.ceil(bytes / count);
  // One call and its result take about this much besides the output itself.
  const outputBytes = 1500;
  const calls = Math.max(1, Math.round(perSession / (outputBytes + 600)));
  const files: string[] = [];
  const allFiles: string[] = [];
  let written = 0;
  let toolCalls = 0;
  for (let s = 0; s < count || written < bytes; s++) {
    const kind = s % AGENTS;
    if (kind === 6) {
      const storage = join(home, '.local/share/opencode/storage');
      const before = allFiles.length;
      const [sessionFile] = writeOpencodeStorage(storage, [opencodeSession(s, calls, outputBytes)], allFiles);
      files.push(sessionFile!);
      for (const f of allFiles.slice(before)) written += statSync(f).size;
      toolCalls += calls;
      continue;
    }
    const path = [
      () => join(home, '.claude/projects', `-home-dev-project-${s % 20}`, `session-${s}.jsonl`),
      () => join(home, '.codex/sessions/2026/01', String((s % 28) + 1).padStart(2, '0'), `rollout-2026-01-01T00-00-00-${s}.jsonl`),
      () => join(home, '.gemini/tmp', `p${s % 20}`, 'chats', `session-${s}.json`),
      () => join(home, '.qwen/projects', `-home-dev-project-${s % 20}`, 'chats', `qwen-${s}.jsonl`),
      () => join(home, '.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks', `task-${s}`, 'api_conversation_history.json'),
      () => join(home, '.local/share/goose/sessions', `goose-${s}.jsonl`),
      // opencode's (kind 6) are written above.
      () => '',
      () => join(home, '.kimi/sessions', `md5-of-project-${s % 20}`, `kimi-${s}`, 'context.jsonl'),
      () => join(home, '.copilot/session-state', `copilot-${s}`, 'events.jsonl'),
      () => join(home, 'code', `aider-project-${s}`, '.aider.chat.history.md'),
    ][kind]!();
    const text = [claudeSession, codexSession, geminiSession, qwenSession, clineSession, gooseSession, () => '', kimiSession, copilotSession, aiderSession][kind]!(s, calls, outputBytes);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    files.push(path);
    allFiles.push(path);
    written += Buffer.byteLength(text);
    toolCalls += calls;
  }
  return { files, allFiles, bytes: written, toolCalls };
}
