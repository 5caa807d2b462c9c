import { describe, expect, it } from 'vitest';
import { datasetFormat, exporterFor, exportPipeline, FORMATS, formatSummaries, importerFor, importExtensions } from './registry';
import { fixture } from '../testing/importer-fixtures';

const HEAD = 64 * 1024;
const awbLine = JSON.stringify({ task: 'terminal', id: 1, prompt: ['p'], response: ['r'], system_str: 's', turn_idx: 1, total_turns: 1 });
const worldloomLine = '{"format":"worldloom.trajectory","version":1,"trajectory":{},"nodes":[]}';

describe('--format auto', () => {
  it.each([
    ['build-session.cast', fixture('asciinema', 'build-session.cast'), 'asciinema'],
    ['typed-session.cast', fixture('asciinema', 'typed-session.cast'), 'asciinema'],
    ['renamed.txt', fixture('asciinema', 'typed-session.cast'), 'asciinema'],
    ['acme__tinyjson-42.traj', fixture('swe-agent', 'acme__tinyjson-42.traj'), 'swe-agent'],
    ['instance.json', fixture('swe-agent', 'acme__tinyjson-42.traj'), 'swe-agent'],
    ['notes-server.mcp.jsonl', fixture('mcp-jsonrpc-log', 'notes-server.mcp.jsonl'), 'mcp-jsonrpc-log'],
    ['log.jsonl', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}', 'mcp-jsonrpc-log'],
    ['trajectory.json', fixture('atif', 'trajectory.json'), 'atif'],
    ['run-7.json', fixture('atif', 'trajectory.json'), 'atif'],
    ['terminal_test.jsonl', awbLine, 'agentworldbench'],
    ['export.jsonl', worldloomLine, 'jsonl'],
    ['train.jsonl', '{"messages": [{"role": "user", "content": "ls"}, {"role": "assistant", "content": "a"}]}', 'messages'],
    ['train.jsonl', '{"conversations": [{"from": "human", "value": "ls"}], "system": "s"}', 'sharegpt'],
    ['data/train-00000-of-00001.parquet', 'PAR1', 'parquet'],
    ['run.json', '{"info": {}, "messages": [], "trajectory_format": "mini-swe-agent-1"}', 'mini-swe-agent'],
  ])('%s is read as %s', (name, text, id) => {
    expect(importerFor('auto', name, text.slice(0, HEAD)).id).toBe(id);
  });

  it('still refuses what no importer recognizes', () => {
    expect(() => importerFor('auto', 'notes.txt', 'hello')).toThrow(/Could not tell the format of notes\.txt\. It is not JSON or JSON lines \(it starts with "hello"\)/);
  });

  it.each([
    ['claude-code.jsonl', fixture('claude-code', 'claude-code-session.jsonl'), 'claude-code'],
    ['rollout-2025-10-02.jsonl', fixture('codex-rollout', 'codex-rollout-2025-10-02.jsonl'), 'codex-rollout'],
    ['session.json', fixture('gemini-cli', 'gemini-cli-session.json'), 'gemini-cli'],
    ['log.json', fixture('inspect-log', 'inspect-log.json'), 'inspect-log'],
    ['traces.json', fixture('otel-genai', 'otel-genai-trace.json'), 'otel-genai'],
    ['demo.cast', fixture('asciinema', 'fish-demo.cast'), 'asciinema'],
  ])('%s is read as %s', (name, text, id) => {
    expect(importerFor('auto', name, text.slice(0, HEAD)).id).toBe(id);
  });

  it('a file no importer takes names the closest format and what it lacks', () => {
    // An ATIF file whose writer left out schema_version.
    const atifLike = JSON.stringify({ session_id: 's', agent: { name: 'a' }, steps: [] });
    expect(() => importerFor('auto', 'run.json', atifLike)).toThrow(/comes closest to ATIF trajectory\.json \(Terminal-Bench 2 \/ Harbor\) \(atif\): it has "session_id", "agent", "steps", but not "schema_version"\./);
    // An Inspect log cut down to its samples.
    expect(() => importerFor('auto', 'x.json', '{"samples": [], "status": "success"}')).toThrow(/comes closest to Inspect AI eval log \(inspect-log\): it has "status", "samples", but not "version", "eval"\./);
  });
});

describe('the format registry', () => {
  it('names each entry by one id, which its importer and writers carry too', () => {
    expect(new Set(FORMATS.map((f) => f.id)).size).toBe(FORMATS.length);
    for (const f of FORMATS) {
      for (const part of [f.importer, f.fileWriter, f.datasetWriter]) if (part) expect(part.id).toBe(f.id);
      expect(f.extensions.length).toBeGreaterThan(0);
    }
  });

  it('gives the open dialogs the extensions of every importable format', () => {
    expect(importExtensions()).toEqual(expect.arrayContaining(['cast', 'json', 'jsonl', 'log', 'traj', 'parquet']));
  });

  it('chooses the export pipeline by the entry: one writer, or the output path for a format with both', () => {
    expect(exportPipeline('jsonl', 'out')).toBe('file');
    expect(exportPipeline('messages', 'out.jsonl')).toBe('folder');
    expect(exportPipeline('agentworldbench', 'back_test.jsonl')).toBe('file');
    expect(exportPipeline('agentworldbench', 'awb-dataset')).toBe('folder');
    expect(formatSummaries().find((f) => f.id === 'agentworldbench')?.exportsTo).toEqual(['file', 'folder']);
  });

  it('refuses an unknown format or a writer the format lacks, listing what exists', () => {
    expect(() => exportPipeline('csv', 'x')).toThrow(/Unknown export format "csv"\. Known formats: messages, prompt-completion, preference, sharegpt, parquet, agentworldbench, jsonl\./);
    expect(() => exporterFor('parquet')).toThrow(/dataset folder, not one file/);
    expect(() => datasetFormat('jsonl')).toThrow(/not a dataset\. Dataset formats: messages, prompt-completion, preference, sharegpt, parquet, agentworldbench/);
    expect(() => importerFor('csv', 'x.csv', '')).toThrow(/Unknown import format "csv"/);
  });
});
