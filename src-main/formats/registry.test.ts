import { describe, expect, it } from 'vitest';
import { importerFor } from './registry';
import { fixture } from '../testing/importer-fixtures';

const HEAD = 64 * 1024;
const awbLine = JSON.stringify({ task: 'terminal', id: 1, prompt: ['p'], response: ['r'], system_str: 's', turn_idx: 1, total_turns: 1 });
const worldloomLine = '{"format":"worldloom.trajectory","version":1,"trajectory":{},"nodes":[]}';

describe('--format auto', () => {
  it.each([
    ['build-session.cast', fixture('build-session.cast'), 'asciinema'],
    ['typed-session.cast', fixture('typed-session.cast'), 'asciinema'],
    ['renamed.txt', fixture('typed-session.cast'), 'asciinema'],
    ['acme__tinyjson-42.traj', fixture('acme__tinyjson-42.traj'), 'swe-agent'],
    ['instance.json', fixture('acme__tinyjson-42.traj'), 'swe-agent'],
    ['notes-server.mcp.jsonl', fixture('notes-server.mcp.jsonl'), 'mcp-jsonrpc-log'],
    ['log.jsonl', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}', 'mcp-jsonrpc-log'],
    ['trajectory.json', fixture('trajectory.json'), 'atif'],
    ['run-7.json', fixture('trajectory.json'), 'atif'],
    ['terminal_test.jsonl', awbLine, 'agentworldbench'],
    ['export.jsonl', worldloomLine, 'jsonl'],
  ])('%s is read as %s', (name, text, id) => {
    expect(importerFor('auto', name, text.slice(0, HEAD)).id).toBe(id);
  });

  it('still refuses what no importer recognizes', () => {
    expect(() => importerFor('auto', 'notes.txt', 'hello')).toThrow(/Could not tell the format/);
  });
});
