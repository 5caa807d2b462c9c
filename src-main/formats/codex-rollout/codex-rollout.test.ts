// Codex CLI rollouts imported: recognised by detection, each tool call paired with its result
// (../../parsing/agent-session.ts) as a step, and what is left out said.
import { describe, expect, it } from 'vitest';
import { fixture, runImporter } from '../../testing/importer-fixtures';
import { importerFor } from '../registry';
import { codexRolloutImporter } from './import';

const steps = (bundle: { nodes: { action: string; observation: string }[] }) => bundle.nodes.slice(1).map((n) => [n.action, n.observation]);
const whats = (skipped: { what: string }[]) => skipped.map((s) => s.what);

describe('Codex CLI rollout JSONL', () => {
  const text = fixture('codex-rollout', 'codex-rollout-2025-10-02.jsonl');

  it('is recognised without --format', () => {
    expect(importerFor('auto', 'rollout-2025-10-02T09-00-00-0199a1b2.jsonl', text).id).toBe('codex-rollout');
  });

  it('shell argv calls read as the command typed, apply_patch as its call, outputs unwrapped; the UI copies and harness messages are said', () => {
    const { bundles, problems, skipped } = runImporter(codexRolloutImporter, 'rollout.jsonl', text);
    expect(problems).toEqual([]);
    const { trajectory, nodes } = bundles[0]!;
    expect(trajectory).toMatchObject({ title: 'Codex CLI 0.46.0 · 0199a1b2-codex-fixture', domain: 'swe' });
    expect(nodes[0]!.observation).toBe('Working directory: /repo\n\nList the Python files and fix the typo in README.md');
    expect(steps(bundles[0]!)).toEqual([
      // The folder it ran in stays in the action, as the model wrote the call.
      ['{"name":"shell","arguments":{"command":["bash","-lc","ls *.py"],"workdir":"/repo"}}', 'app.py\nutil.py\n'],
      ['{"name":"apply_patch","arguments":"*** Begin Patch\\n*** Update File: README.md\\n@@\\n-Teh app\\n+The app\\n*** End Patch\\n"}', 'Success. Updated the following files:\nM README.md\n'],
      ["rg -n Teh .", ''],
    ]);
    expect(nodes[1]!.agentReasoning).toBe('**Listing Python files**');
    expect(nodes[3]!.provenance.tool).toMatchObject({ isError: true });
    expect((nodes[0]!.provenance.codex as { harnessMessages: string[] }).harnessMessages).toHaveLength(2);
    expect(whats(skipped)).toEqual([
      '1 × developer message the harness wrote (instructions, environment context)',
      '1 × user message the harness wrote (instructions, environment context)',
      '2 × event_msg record',
      '1 × turn_context record',
      '1 × encrypted reasoning',
      "the agent's last words: Fixed the typo; app.py and util.py are the Python files.",
    ]);
  });

  // Shapes of newer versions (0.5x-0.6x): the shell tool's and unified exec's output as text after
  // its run details, the person's own `!` command, work-tree snapshots, an MCP tool's arguments.
  const newer = fixture('codex-rollout', 'codex-rollout-0.66-exec.jsonl');

  it('a command output keeps what it printed, not its run details; a non-zero exit code marks the step', () => {
    expect(importerFor('auto', 'rollout-2025-12-08T14-02-00-019afe31.jsonl', newer).id).toBe('codex-rollout');
    const { bundles, problems, skipped } = runImporter(codexRolloutImporter, 'rollout.jsonl', newer);
    expect(problems).toEqual([]);
    const { nodes } = bundles[0]!;
    expect(nodes[0]!.observation).toBe('Working directory: /home/ana/weather\n\nWhy does forecast.py crash for Oslo? Fix it.');
    // Counted by hand: the person's `git status`, then the agent's three calls.
    expect(steps(bundles[0]!)).toEqual([
      ['git status --short', ' M forecast.py\n'],
      ['{"name":"shell_command","arguments":{"command":"python forecast.py Oslo","workdir":"/home/ana/weather"}}', "Traceback (most recent call last):\nKeyError: 'temp'\n"],
      ['{"name":"mcp__weather__forecast","arguments":{"lat":59.90,"lon":10.75,"days":1}}', '{"temperature": 3.0, "unit": "C"}'],
      ['{"name":"exec_command","arguments":{"cmd":"sed -i \'s/temp/temperature/\' forecast.py && python forecast.py Oslo","workdir":"/home/ana/weather","yield_time_ms":1000}}', 'Oslo: 3.0 C\n'],
    ]);
    expect(nodes[1]!.provenance.tool).toMatchObject({ name: 'shell' });
    expect(nodes[1]!.provenance.tool).not.toHaveProperty('isError');
    expect(nodes[2]!.provenance.tool).toMatchObject({ isError: true });
    expect(nodes[4]!.provenance.tool).not.toHaveProperty('isError');
    expect(whats(skipped)).toEqual([
      '1 × developer message the harness wrote (instructions, environment context)',
      '1 × user message the harness wrote (instructions, environment context)',
      '1 × turn_context record',
      '1 × work-tree snapshot (ghost_snapshot)',
      "3 × run details before a command's output",
      "the agent's last words: forecast.py read the key `temp`; the service answers `temperature`. Fixed, and Oslo prints 3.0 C.",
    ]);
  });

  it('exec_command and shell_command keep their working folder, timeout and other arguments as the agent ran them; a bare command reads as typed', () => {
    const text = [
      '{"type":"session_meta","payload":{"id":"wd","cwd":"/a","cli_version":"0.114.0"}}',
      '{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Build both"}]}}',
      '{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\\"cmd\\":\\"make\\",\\"workdir\\":\\"/a/server\\",\\"timeout_ms\\":120000}","call_id":"c1"}}',
      '{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"ok server"}}',
      '{"type":"response_item","payload":{"type":"function_call","name":"shell_command","arguments":"{\\"command\\":\\"make\\",\\"workdir\\":\\"/a/client\\",\\"timeout_ms\\":60000.0}","call_id":"c2"}}',
      '{"type":"response_item","payload":{"type":"function_call_output","call_id":"c2","output":"ok client"}}',
      '{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\\"cmd\\":\\"ls\\"}","call_id":"c3"}}',
      '{"type":"response_item","payload":{"type":"function_call_output","call_id":"c3","output":"Makefile"}}',
      '{"type":"response_item","payload":{"type":"local_shell_call","call_id":"c4","status":"completed","action":{"type":"exec","command":["make","test"],"working_directory":"/a/client","timeout_ms":1000}}}',
      '{"type":"response_item","payload":{"type":"local_shell_call_output","call_id":"c4","output":"passed"}}',
    ].join('\n');
    const { bundles, problems } = runImporter(codexRolloutImporter, 'rollout.jsonl', text);
    expect(problems).toEqual([]);
    expect(steps(bundles[0]!).map(([action]) => action)).toEqual([
      '{"name":"exec_command","arguments":{"cmd":"make","workdir":"/a/server","timeout_ms":120000}}',
      // Numbers as written: 60000.0 stays 60000.0.
      '{"name":"shell_command","arguments":{"command":"make","workdir":"/a/client","timeout_ms":60000.0}}',
      'ls',
      '{"name":"local_shell","arguments":{"command":["make","test"],"working_directory":"/a/client","timeout_ms":1000}}',
    ]);
  });

  it('`codex exec --json` output captured with the text Codex printed before its first event is recognised; that text is said, not a problem', () => {
    const events = fixture('codex-rollout', 'codex-exec-json.jsonl');
    const text = `Reading prompt from stdin...\nwarning: config.toml: unknown key "foo"\n${events}`;
    expect(importerFor('auto', 'run.jsonl', text).id).toBe('codex-rollout');
    const { bundles, problems, skipped } = runImporter(codexRolloutImporter, 'run.jsonl', text);
    expect(problems).toEqual([]);
    expect(skipped.find((s) => s.what === "2 lines of text before the run's first event")).toMatchObject({ line: 1 });
    expect(steps(bundles[0]!)).toEqual(steps(runImporter(codexRolloutImporter, 'run.jsonl', events).bundles[0]!));
    // In a rollout, a broken line is still a problem.
    expect(runImporter(codexRolloutImporter, 'rollout.jsonl', `oops\n${fixture('codex-rollout', 'codex-rollout-2025-10-02.jsonl')}`).problems).toHaveLength(1);
  });

  it('an older rollout (a session line, then bare items and state records) is recognised under any name', () => {
    const older = fixture('codex-rollout', 'codex-session-2025-08.jsonl');
    expect(importerFor('auto', 'notes-session.jsonl', older).id).toBe('codex-rollout');
    const { bundles, problems, skipped } = runImporter(codexRolloutImporter, 'notes-session.jsonl', older);
    expect(problems).toEqual([]);
    const { nodes } = bundles[0]!;
    // The working directory comes from the environment context the older versions sent.
    expect(nodes[0]!.observation).toBe('Working directory: /src/notes\n\nHow many markdown files are there?');
    expect(nodes[0]!.provenance.codex).toMatchObject({ cwd: '/src/notes', instructions: 'Prefer small commits.' });
    expect(steps(bundles[0]!)).toEqual([['ls *.md | wc -l', '4\n']]);
    expect(whats(skipped)).toEqual([
      '3 × state record',
      '1 × user message the harness wrote (instructions, environment context)',
      "the agent's last words: There are 4 markdown files.",
    ]);
  });

  it('an image the person attached is said, not left in the task as a placeholder', () => {
    const lines = newer.split('\n');
    const task = lines.findIndex((l) => l.includes('Why does forecast.py crash'));
    lines[task] = lines[task]!.replace('"content":[{"type":"input_text"', '"content":[{"type":"input_image","image_url":"data:image/png;base64,iVBORw0KGgo="},{"type":"input_text"');
    const { bundles, skipped } = runImporter(codexRolloutImporter, 'rollout.jsonl', lines.join('\n'));
    expect(bundles[0]!.nodes[0]!.observation).toBe('Working directory: /home/ana/weather\n\nWhy does forecast.py crash for Oslo? Fix it.');
    expect(whats(skipped)).toContain('1 × image the person attached');
  });

  it("a screenshot a tool returned is marked in the observation and said in the report", () => {
    const lines = [
      '{"type":"session_meta","payload":{"id":"s-img","cwd":"/w","cli_version":"0.110.0"}}',
      '{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"What does the page look like?"}]}}',
      '{"type":"response_item","payload":{"type":"function_call","name":"view_image","arguments":"{\\"path\\":\\"/w/page.png\\"}","call_id":"c1"}}',
      '{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":[{"type":"input_image","image_url":"data:image/png;base64,iVBORw0KGgo="}]}}',
    ];
    const { bundles, skipped } = runImporter(codexRolloutImporter, 'rollout.jsonl', lines.join('\n'));
    expect(steps(bundles[0]!)).toEqual([['{"name":"view_image","arguments":{"path":"/w/page.png"}}', '(an image)']]);
    expect(whats(skipped)).toEqual(['1 × image in a tool result']);
  });

  it("Codex's own user-role messages of newer versions (skills, subagent notices, aborted turns) are not the person's", () => {
    const msg = (text: string) => `{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":${JSON.stringify(text)}}]}}`;
    const lines = [
      '{"type":"session_meta","payload":{"id":"s-h","cwd":"/w","cli_version":"0.120.0"}}',
      msg('<skill>\n<name>pdf</name>\nRead PDFs with pdftotext.\n</skill>'),
      msg('Count the pages of report.pdf'),
      '{"type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\\"cmd\\":\\"pdfinfo report.pdf\\"}","call_id":"c1"}}',
      '{"type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"Pages: 12"}}',
      msg('<subagent_notification>\n{"agent_id":"a1","status":"completed"}\n</subagent_notification>'),
      msg('<TURN_ABORTED>\nThe user interrupted.\n</TURN_ABORTED>'),
    ];
    const { bundles, skipped } = runImporter(codexRolloutImporter, 'rollout.jsonl', lines.join('\n'));
    expect(bundles[0]!.nodes[0]!.observation).toBe('Working directory: /w\n\nCount the pages of report.pdf');
    expect(steps(bundles[0]!)).toEqual([['pdfinfo report.pdf', 'Pages: 12']]);
    expect(whats(skipped)).toEqual(['3 × user message the harness wrote (instructions, environment context)']);
  });

  it('`codex exec --json` output (headless runs) is recognised: each completed command, MCP call and file change is a step', () => {
    const run = fixture('codex-rollout', 'codex-exec-json.jsonl');
    expect(importerFor('auto', 'codex-run.jsonl', run).id).toBe('codex-rollout');
    const { bundles, problems, skipped } = runImporter(codexRolloutImporter, 'codex-run.jsonl', run);
    expect(problems).toEqual([]);
    const { trajectory, nodes } = bundles[0]!;
    expect(trajectory.title).toBe('Codex CLI · 0199f3a2-6c1d-7b40-9e85-3d2a1c0b9f77');
    // Counted by hand: two commands (the shell wrapper taken off), the file change, the MCP call.
    expect(steps(bundles[0]!)).toEqual([
      ['cat package.json | head -5', '{\n  "name": "tiles",\n  "scripts": { "build": "vite build" }\n'],
      ['npm run build', 'sh: vite: not found\n'],
      ['{"name":"file_change","arguments":{"changes":[{"path":"/repo/package.json","kind":"update"}]}}', 'completed'],
      ['{"name":"mcp__docs__search","arguments":{"q":"vite install","limit":3.0}}', 'npm i -D vite'],
    ]);
    expect(nodes[1]!.agentReasoning).toBe('**Checking the build script**');
    expect(nodes[2]!.provenance.tool).toMatchObject({ isError: true });
    expect(whats(skipped)).toEqual([
      'the prompt',
      '1 × turn.started event',
      '1 × item.started event',
      '1 × todo_list item',
      '1 × turn.completed event',
      "the agent's last words: vite was missing from devDependencies; I added it.",
    ]);
  });

  it('a call Codex did not run (declined, or the turn stopped) is no step, and is said', () => {
    const call = (id: string, cmd: string) => `{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":${JSON.stringify(JSON.stringify({ command: ['bash', '-lc', cmd] }))},"call_id":"${id}"}}`;
    const out = (id: string, text: string) => `{"type":"response_item","payload":{"type":"function_call_output","call_id":"${id}","output":${JSON.stringify(text)}}}`;
    const lines = [
      '{"type":"session_meta","payload":{"id":"s-d","cwd":"/w","cli_version":"0.60.0"}}',
      '{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Clean up"}]}}',
      '{"type":"response_item","payload":{"type":"reasoning","summary":[{"type":"summary_text","text":"**Deleting the cache**"}],"encrypted_content":"x"}}',
      call('c1', 'rm -rf .cache'),
      out('c1', 'exec command rejected by user'),
      call('c2', 'du -sh .cache'),
      out('c2', '{"output":"12M\\t.cache\\n","metadata":{"exit_code":0,"duration_seconds":0.1}}'),
      call('c3', 'sleep 600'),
      out('c3', 'aborted'),
    ];
    const { bundles, skipped } = runImporter(codexRolloutImporter, 'rollout.jsonl', lines.join('\n'));
    expect(steps(bundles[0]!)).toEqual([['du -sh .cache', '12M\t.cache\n']]);
    expect(bundles[0]!.nodes[1]!.agentReasoning ?? null).toBeNull();
    expect(whats(skipped)).toEqual(['2 × call that did not run (shell)']);
  });
});

