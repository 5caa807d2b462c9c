import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { ImportItem } from '../parsing/import-item';
import type { TrajectoryImporter } from './format';
import { claudeCodeImporter } from './claude-code/import';
import { codexRolloutImporter } from './codex-rollout/import';
import { geminiCliImporter } from './gemini-cli/import';
import { inspectLogImporter } from './inspect-log/import';
import { otelGenAiImporter } from './otel-genai/import';
import { importerFor } from './registry';
import { fileSource } from '../parsing/sources';
import { fixture, runImporter } from '../testing/importer-fixtures';
import { realWorld, realWorldNote } from '../testing/real-world';

const steps = (bundle: { nodes: { action: string; observation: string }[] }) => bundle.nodes.slice(1).map((n) => [n.action, n.observation]);
const whats = (skipped: { what: string }[]) => skipped.map((s) => s.what);

describe('Claude Code session JSONL', () => {
  const text = fixture('claude-code', 'claude-code-session.jsonl');

  it('is recognised without --format', () => {
    expect(importerFor('auto', '5f0c9a1e.jsonl', text).id).toBe('claude-code');
  });

  it('each answered tool call is a step; harness calls, meta and sidechain records, slash commands and the unanswered call are said', () => {
    const { bundles, problems, skipped } = runImporter(claudeCodeImporter, '5f0c9a1e.jsonl', text);
    expect(problems).toEqual([]);
    expect(bundles).toHaveLength(1);
    const { trajectory, nodes } = bundles[0]!;
    expect(trajectory).toMatchObject({ title: 'Fix the add() bug in calc.py (Claude Code)', domain: 'swe' });
    expect(nodes[0]!.observation).toBe('Working directory: /work/calc\n\nFix the failing test in calc.py');
    // Counted by hand: Bash, Read, Edit answered (TodoWrite is the harness's, the last Bash was
    // interrupted), and the person's own `git diff --stat` in bash mode.
    expect(steps(bundles[0]!)).toEqual([
      ['pytest -q', 'F\n1 failed in 0.02s'],
      ['{"name":"Read","arguments":{"file_path":"/work/calc/calc.py"}}', '     1→def add(a, b):\n     2→    return a - b'],
      ['{"name":"Edit","arguments":{"file_path":"/work/calc/calc.py","old_string":"a - b","new_string":"a + b"}}', 'The file /work/calc/calc.py has been updated.'],
      ['git diff --stat', ' calc.py | 2 +-\n 1 file changed'],
    ]);
    expect(nodes[1]!.agentReasoning).toBe('The test fails; run it first.\n\nLet me run the tests.');
    expect(nodes[1]!.provenance.tool).toEqual({ name: 'Bash', callId: 'toolu_1', isError: true });
    expect(whats(skipped)).toEqual([
      'the harness call TodoWrite and its answer: Todos have been modified successfully.',
      'a later user message: Also run it once more',
      '1 × session summary',
      '1 × file-history-snapshot record',
      '1 × message the harness added (isMeta)',
      '1 × subagent (sidechain) message',
      '1 × slash command or its output',
      '1 × interruption by the person',
      '1 × summary of the conversation so far (/compact)',
      'the call pytest -q',
      "the agent's last words: Fixed: add() now adds.",
    ]);
  });
});

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
      ['ls *.py', 'app.py\nutil.py\n'],
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
});

describe('gemini-cli sessions', () => {
  it('a chat recording: each tool call with its result is a step; the cancelled call and the app notes are said', () => {
    const text = fixture('gemini-cli', 'gemini-cli-session.json');
    expect(importerFor('auto', 'session-2025-10-03T08-00.json', text).id).toBe('gemini-cli');
    const { bundles, problems, skipped } = runImporter(geminiCliImporter, 'session.json', text);
    expect(problems).toEqual([]);
    expect(bundles[0]!.trajectory.domain).toBe('swe');
    expect(bundles[0]!.nodes[0]!.observation).toBe('Count the lines of main.go');
    expect(steps(bundles[0]!)).toEqual([
      ['{"name":"read_file","arguments":{"absolute_path":"/p/main.go"}}', 'package main\n\nfunc main() {}\n'],
      ['wc -l main.go', 'Command: wc -l main.go\nStdout: 3 main.go\nExit Code: 0'],
    ]);
    expect(bundles[0]!.nodes[1]!.agentReasoning).toBe('Reading the file: I will read main.go first.');
    expect(whats(skipped)).toEqual(['messages.3 (a info note: Request cancelled.)', 'the call {"name":"write_file","arguments":{"file_path":"/p/count.txt","content":"3"}}', "the agent's last words: main.go has 3 lines."]);
  });

  it('a saved chat (Gemini API contents): calls pair with responses by name when they carry no id', () => {
    const contents = [
      { role: 'user', parts: [{ text: 'What is in /tmp?' }] },
      { role: 'model', parts: [{ text: 'Listing it.' }, { functionCall: { name: 'list_directory', args: { path: '/tmp' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'list_directory', response: { output: 'a.log\nb.log' } } }] },
      { role: 'model', parts: [{ text: 'Two logs.' }] },
    ];
    const text = JSON.stringify(contents);
    expect(importerFor('auto', 'checkpoint-x.json', text).id).toBe('gemini-cli');
    const { bundles, problems } = runImporter(geminiCliImporter, 'checkpoint-x.json', text);
    expect(problems).toEqual([]);
    expect(steps(bundles[0]!)).toEqual([['{"name":"list_directory","arguments":{"path":"/tmp"}}', 'a.log\nb.log']]);
  });
});

function inspectSample1() {
  return (JSON.parse(fixture('inspect-log', 'inspect-log.json')) as { samples: unknown[] }).samples[0];
}

describe('Inspect AI eval logs', () => {
  const expectSample1 = (items: ImportItem[]) => {
    const bundles = items.flatMap((i) => (i.kind === 'trajectory' ? [i.bundle] : []));
    expect(bundles).toHaveLength(1);
    expect(bundles[0]!.trajectory.title).toBe('Inspect AI make_hello (openai/gpt-4o) · sample 1 epoch 1');
    expect(bundles[0]!.trajectory.domain).toBe('terminal');
    expect(bundles[0]!.nodes[0]!.observation).toBe('Create hello.txt containing hi');
    expect(steps(bundles[0]!)).toEqual([
      ['echo hi > hello.txt', ''],
      ['cat nope.txt', 'unknown: cat: nope.txt: No such file or directory'],
    ]);
    expect(bundles[0]!.nodes[1]!.agentReasoning).toBe("A bash echo will do.\n\nI'll write the file.");
  };

  it('a .json log: one trajectory per sample that called tools; a sample that only answered is said', () => {
    const text = fixture('inspect-log', 'inspect-log.json');
    expect(importerFor('auto', '2025-10-04T00-00-00_make-hello.json', text).id).toBe('inspect-log');
    const run = runImporter(inspectLogImporter, 'make-hello.json', text);
    expectSample1([...run.bundles.map((bundle) => ({ kind: 'trajectory' as const, bundle }))]);
    expect(run.problems.map((p) => p.reason)).toEqual(['sample 2 epoch 1: no tool call with a result: the agent only talked, so there is no action and observation to import']);
    expect(whats(run.skipped)).toContain('sample 1 epoch 1 message 1 (the system prompt)');
  });

  it('a .eval archive (zip of header.json and samples/*.json) reads the same', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-inspect-'));
    const path = join(dir, 'make-hello.eval');
    const header = JSON.parse(fixture('inspect-log', 'inspect-log.json')) as Record<string, unknown>;
    delete header.samples;
    writeFileSync(path, zipSync({ 'header.json': strToU8(JSON.stringify(header)), 'samples/1_epoch_1.json': strToU8(JSON.stringify(inspectSample1())), '_journal/start.json': strToU8('{}') }));
    expect(importerFor('auto', 'make-hello.eval', readFileSync(path, 'latin1').slice(0, 4096)).id).toBe('inspect-log');
    let n = 0;
    expectSample1([...inspectLogImporter.parse(fileSource(path), () => `id-${n++}`, '2024-06-10T00:00:00Z')]);
  });
});

describe('OpenTelemetry GenAI traces (OTLP JSON)', () => {
  const text = fixture('otel-genai', 'otel-genai-trace.json');

  it('one trajectory per trace, spans in time order: tool spans and the calls and results in model messages are steps', () => {
    expect(importerFor('auto', 'traces.json', text).id).toBe('otel-genai');
    const { bundles, problems, skipped } = runImporter(otelGenAiImporter, 'traces.json', text);
    expect(problems).toEqual([]);
    expect(bundles).toHaveLength(2);
    const [weather, files] = bundles;
    expect(weather!.trajectory.title).toBe('traced agent weather-agent (gpt-4o) · trace 0af7651916cd43dd8448eb211c80319c');
    expect(weather!.nodes[0]!.observation).toBe('What is the weather in Paris?');
    // Counted by hand: get_weather (its span's result) and get_forecast (an error status, no result attribute).
    expect(steps(weather!)).toEqual([
      ['{"name":"get_weather","arguments":{"city":"Paris"}}', '{"temp_c": 18.0}'],
      ['{"name":"get_forecast","arguments":{"city":"Paris","days":2}}', 'forecast service unavailable'],
    ]);
    expect(weather!.nodes[2]!.agentReasoning).toBe('Let me check the forecast too.');
    expect(weather!.nodes[2]!.provenance.tool).toMatchObject({ isError: true });
    // OpenLLMetry's flattened attributes: the call in one span, its result fed back in the next.
    expect(files!.nodes[0]!.observation).toBe('List the files here');
    expect(steps(files!)).toEqual([['{"name":"list_dir","arguments":{"path":"."}}', '["a.txt", "b.txt"]']]);
    expect(whats(skipped)).toContain("2 spans of other kinds (HTTP, database, the agent's own steps)");
  });
});

const REAL = realWorld();
const real = (p: string) => join(REAL, p);

describe.skipIf(!existsSync(REAL))(`the shared real files of these formats (${realWorldNote()})`, () => {
  const run = (importer: TrajectoryImporter, path: string) => runImporter(importer, path.split('/').pop()!, readFileSync(real(path), 'utf8'));

  it("Inspect's tool-call-error log: recognised; its 11 tool results answer calls the log does not hold, each said", () => {
    const text = readFileSync(real('traces/inspect-log_tool_call_error.json'), 'utf8');
    expect(importerFor('auto', 'log_tool_call_error.json', text).id).toBe('inspect-log');
    const { bundles, problems } = run(inspectLogImporter, 'traces/inspect-log_tool_call_error.json');
    expect(bundles).toEqual([]);
    expect(problems.filter((p) => /a tool result for "bash_\d+", which no earlier call made/.test(p.reason))).toHaveLength(11);
  });

  it('the OTLP example envelope: recognised; its one generic span is named as not GenAI', () => {
    const text = readFileSync(real('traces/otlp-example-trace.json'), 'utf8');
    expect(importerFor('auto', 'trace.json', text).id).toBe('otel-genai');
    const { bundles, problems } = run(otelGenAiImporter, 'traces/otlp-example-trace.json');
    expect(bundles).toEqual([]);
    expect(problems.map((p) => p.reason)).toEqual([expect.stringMatching(/^trace 5B8EFFF798038103D269B633813FC60C: none of its 1 span \(I'm a server span\) follows the GenAI conventions/)]);
  });

  it("Harbor's gemini-cli session: recognised; a question and a reply with no tool call is said, not imported", () => {
    const text = readFileSync(real('atif/gemini-cli-trajectory.json'), 'utf8');
    expect(importerFor('auto', 'gemini-cli-trajectory.json', text).id).toBe('gemini-cli');
    const { bundles, problems, skipped } = run(geminiCliImporter, 'atif/gemini-cli-trajectory.json');
    expect(bundles).toEqual([]);
    expect(problems.map((p) => p.reason)).toEqual(['cdd63974-c2a3-4f1c-931d-cce1db22ec03: no tool call with a result: the agent only talked, so there is no action and observation to import']);
    expect(whats(skipped)).toEqual(['the agent\'s last words: Okay, I\'ve created the file `/app/hello.txt` with the content "Hello, world!".']);
  });
});
