// Cline / Roo Code / Kilo Code task histories (api_conversation_history.json): the three ways
// their versions write a call and its result, each read to the same steps; the extension's own
// text, refused calls and the tools that talk to the person are said, not imported.
import { describe, expect, it } from 'vitest';
import { runImporter } from '../../testing/importer-fixtures';
import { importerFor } from '../registry';
import { clineTaskImporter } from './import';

const env = { type: 'text', text: '<environment_details>\n# Current Working Directory (/home/ada/shop) Files\nREADME.md\n</environment_details>' };
const task = { role: 'user', content: [{ type: 'text', text: '<task>\nWhich Python version does the shop use?\n</task>' }, env] };
const steps = (bundle: { nodes: { action: string; observation: string }[] }) => bundle.nodes.slice(1).map((n) => [n.action, n.observation]);

/** Cline 3 and Roo Code before native calls: XML in the text, the result's header and body in separate blocks. */
const xmlEra = [
  task,
  { role: 'assistant', content: [{ type: 'text', text: '<thinking>The runtime file says it.</thinking>\n\n<read_file>\n<path>runtime.txt</path>\n</read_file>' }] },
  { role: 'user', content: [{ type: 'text', text: "[read_file for 'runtime.txt'] Result:" }, { type: 'text', text: 'python-3.12.4\n' }, env] },
  { role: 'assistant', content: [{ type: 'text', text: 'Let me confirm with the interpreter.\n<execute_command>\n<command>python3 --version</command>\n<requires_approval>false</requires_approval>\n</execute_command>' }] },
  { role: 'user', content: [{ type: 'text', text: "[execute_command for 'python3 --version'] Result:" }, { type: 'text', text: 'The user denied this operation.' }, env] },
  { role: 'assistant', content: [{ type: 'text', text: '<ask_followup_question>\n<question>May I run python3?</question>\n</ask_followup_question>' }] },
  { role: 'user', content: [{ type: 'text', text: "[ask_followup_question for 'May I run python3?'] Result:" }, { type: 'text', text: '<answer>\nyes, go ahead\n</answer>' }, env] },
  { role: 'assistant', content: [{ type: 'text', text: '<execute_command>\n<command>python3 --version</command>\n<requires_approval>false</requires_approval>\n</execute_command>' }] },
  { role: 'user', content: [{ type: 'text', text: "[execute_command for 'python3 --version'] Result:" }, { type: 'text', text: 'Command executed.\nOutput:\nPython 3.12.4' }, env] },
  { role: 'assistant', content: [{ type: 'text', text: '<attempt_completion>\n<result>The shop uses Python 3.12.4.</result>\n</attempt_completion>' }] },
];

/** Cline with native calls: tool_use blocks, the result as one text block with its header on the first line. */
const clineNative = [
  task,
  { role: 'assistant', content: [{ type: 'text', text: 'Reading the runtime file.' }, { type: 'tool_use', id: 'toolu_a1', name: 'read_file', input: { path: 'runtime.txt', task_progress: '- [ ] check' } }], modelInfo: { modelId: 'claude-sonnet-4-5', providerId: 'anthropic' } },
  { role: 'user', content: [{ type: 'text', text: "[read_file for 'runtime.txt'] Result:\npython-3.12.4\n" }, env] },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_a2', name: 'execute_command', input: { command: 'python3 --version', requires_approval: false } }] },
  { role: 'user', content: [{ type: 'text', text: "[execute_command for 'python3 --version'] Result:\nCommand executed.\nOutput:\nPython 3.12.4" }, env] },
];

/** Roo Code and Kilo Code with native calls: tool_result blocks by id. */
const rooNative = [
  task,
  { role: 'assistant', content: [{ type: 'text', text: 'Reading the runtime file.' }, { type: 'tool_use', id: 'call_1', name: 'read_file', input: { path: 'runtime.txt' } }, { type: 'tool_use', id: 'call_2', name: 'execute_command', input: { command: 'python3 --version' } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_1', content: 'python-3.12.4\n' }, { type: 'tool_result', tool_use_id: 'call_2', content: [{ type: 'text', text: 'Command executed.\nOutput:\nPython 3.12.4' }] }, env] },
];

describe('Cline / Roo Code / Kilo Code task history', () => {
  it('is recognised by its file name and by its first message', () => {
    expect(importerFor('auto', 'api_conversation_history.json', JSON.stringify(clineNative)).id).toBe('cline-task');
    expect(importerFor('auto', 'task.json', JSON.stringify(xmlEra, null, 2)).id).toBe('cline-task');
  });

  it('XML calls: the call its result names, parameters as the extension read them; a refused call and a question to the person are no steps', () => {
    const { bundles, problems, skipped } = runImporter(clineTaskImporter, 'api_conversation_history.json', JSON.stringify(xmlEra));
    expect(problems).toEqual([]);
    expect(steps(bundles[0]!)).toEqual([
      ['{"name":"read_file","arguments":{"path":"runtime.txt"}}', 'python-3.12.4\n'],
      ['python3 --version', 'Command executed.\nOutput:\nPython 3.12.4'],
    ]);
    expect(bundles[0]!.nodes[0]!.observation).toBe('Which Python version does the shop use?');
    expect(bundles[0]!.nodes[1]!.agentReasoning).toBe('<thinking>The runtime file says it.</thinking>');
    const whats = skipped.map((s) => s.what);
    expect(whats).toContain('1 × call the extension did not run');
    expect(whats).toContain('1 × the harness call ask_followup_question and its answer');
    expect(whats).toContain("5 × the editor's state (environment_details)");
    // The refused call's reasoning left with it; the retry after the person's yes has none of it.
    expect(bundles[0]!.nodes[2]!.agentReasoning ?? '').not.toContain('confirm');
  });

  it("Cline's native calls answered by a header line: the same steps, arguments as written", () => {
    const { bundles, problems } = runImporter(clineTaskImporter, 'api_conversation_history.json', JSON.stringify(clineNative));
    expect(problems).toEqual([]);
    expect(steps(bundles[0]!)).toEqual([
      ['{"name":"read_file","arguments":{"path":"runtime.txt","task_progress":"- [ ] check"}}', 'python-3.12.4\n'],
      ['python3 --version', 'Command executed.\nOutput:\nPython 3.12.4'],
    ]);
    expect(bundles[0]!.nodes[1]!.agentReasoning).toBe('Reading the runtime file.');
  });

  it("Roo Code's and Kilo Code's tool_result blocks pair by id", () => {
    const { bundles, problems } = runImporter(clineTaskImporter, 'api_conversation_history.json', JSON.stringify(rooNative));
    expect(problems).toEqual([]);
    expect(steps(bundles[0]!)).toEqual([
      ['{"name":"read_file","arguments":{"path":"runtime.txt"}}', 'python-3.12.4\n'],
      ['python3 --version', 'Command executed.\nOutput:\nPython 3.12.4'],
    ]);
  });

  it('a file that is not a message list is refused with what was expected', () => {
    const { bundles, problems } = runImporter(clineTaskImporter, 'api_conversation_history.json', '{"role":"user"}');
    expect(bundles).toEqual([]);
    expect(problems[0]!.reason).toContain('list of messages');
  });
});
