import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResultFile } from './result-files';
import { keyOfLine } from './result-lines';

const tempFile = (text: string) => {
  const file = join(mkdtempSync(join(tmpdir(), 'wl-results-')), 'judged.jsonl');
  writeFileSync(file, text);
  return file;
};
// Written as Python's json.dumps writes them: spaces after separators, 0.0 for a float zero.
const line = (task: string, id: string, turn: number, extra = '') => `{"task": "${task}", "id": "${id}", "turn_idx": ${turn}, "gen": "x", "failed": 0.0${extra}}`;

describe('results files', () => {
  it('keys a line by its record: domain from task, id and turn, or by the key Worldloom wrote', () => {
    expect(keyOfLine({ task: 'agentworld/terminal', id: 't1', turn_idx: 2 })).toBe('terminal/t1/2');
    expect(keyOfLine({ task: 'mcp', id: 7 })).toBe('mcp/7/1');
    expect(keyOfLine({ task: 'weird', id: 'w', turn_idx: 1, worldloom: { key: 'os/w/1' } })).toBe('os/w/1');
    expect(keyOfLine({ id: 'no-task' })).toBeNull();
  });

  it('drops a line torn by a crash and repairs the file so the next append starts a new line', () => {
    const file = tempFile(`${line('terminal', 't1', 1)}\n{"task": "terminal", "id": "t1", "tur`);
    const results = ResultFile.read(file, { repair: true });
    expect(results.keys()).toEqual(['terminal/t1/1']);
    expect(readFileSync(file, 'utf8')).toBe(`${line('terminal', 't1', 1)}\n`);
    results.append({ task: 'terminal', id: 't1', turn_idx: 2, gen: 'y' });
    expect(ResultFile.read(file, { repair: false }).keys()).toEqual(['terminal/t1/1', 'terminal/t1/2']);
  });

  it('drops a line that is not UTF-8 but keeps one holding U+FFFD as a character', () => {
    const kept = line('terminal', 't1', 1, ', "v": "\uFFFD"');
    const file = join(mkdtempSync(join(tmpdir(), 'wl-results-')), 'judged.jsonl');
    writeFileSync(file, Buffer.concat([Buffer.from(`${kept}\n`), Buffer.from(line('terminal', 't2', 1, ', "v": "')), Buffer.from([0xff, 0x22, 0x7d, 0x0a])]));
    const results = ResultFile.read(file, { repair: true });
    expect(results.keys()).toEqual(['terminal/t1/1']);
    expect(results.get('terminal/t1/1')).toMatchObject({ v: '\uFFFD' });
    expect(readFileSync(file, 'utf8')).toBe(`${kept}\n`);
  });

  it('ends a complete last line that lacks its newline, and leaves the file alone without repair', () => {
    const text = line('terminal', 't1', 1);
    const file = tempFile(text);
    ResultFile.read(file, { repair: false });
    expect(readFileSync(file, 'utf8')).toBe(text);
    ResultFile.read(file, { repair: true });
    expect(readFileSync(file, 'utf8')).toBe(`${text}\n`);
  });

  it('puts lines in benchmark order, one per case (the last written), keeping their text and other lines', () => {
    const foreign = '{"note": "not a case"}';
    const file = tempFile([line('mcp', 'm1', 2), foreign, line('mcp', 'm1', 1, ', "v": 1'), line('mcp', 'm1', 1, ', "v": 2'), line('os', 'x', 1)].join('\n') + '\n');
    const results = ResultFile.read(file, { repair: true });
    expect(results.get('mcp/m1/1')).toMatchObject({ v: 2 });
    results.putInOrder(['mcp/m1/1', 'mcp/m1/2']);
    expect(readFileSync(file, 'utf8')).toBe([line('mcp', 'm1', 1, ', "v": 2'), line('mcp', 'm1', 2), foreign, line('os', 'x', 1)].join('\n') + '\n');
    expect(results.keys()).toEqual(['mcp/m1/1', 'mcp/m1/2', 'os/x/1']);
  });
});
