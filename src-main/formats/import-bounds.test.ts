// What any imported file may cost and how every importer reads the odd ones: a byte order
// mark, an empty file, a replacement character, JSON that nests without end, a line without
// end, a terminal of absurd size. Each is refused or bounded, and the report says what.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importTrajectories } from './import-trajectories';
import { WorkspaceStore } from '../store/workspace-store';
import { generatedAwb } from '../testing/awb-fixtures';
import { MAX_JSON_DEPTH } from '../parsing/json-limits';
import { IMPORTERS } from './registry';
import { fileHead, fileLines, fileSource, textSource } from '../parsing/sources';
import { MAX_TERMINAL_COLS, MAX_TERMINAL_ROWS } from '../parsing/terminal-screen';
import { fixture } from '../testing/importer-fixtures';

let dir: string;
let store: WorkspaceStore;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wl-bounds-'));
  store = WorkspaceStore.create(join(dir, 'w.worldloom'));
});
afterEach(() => store.close());

function importFile(name: string, content: string | Buffer, format = 'auto') {
  const path = join(dir, name);
  writeFileSync(path, content);
  return importTrajectories(store, fileSource(path), { format, head: fileHead(path) });
}

const worldloomJsonl = () =>
  JSON.stringify({
    format: 'worldloom.trajectory',
    version: 1,
    trajectory: { id: 't-bom', title: 'bom', domain: 'terminal', systemPrompt: '', worldSpec: null, sourceKey: null, createdAt: '2024-01-01T00:00:00Z' },
    nodes: [{ id: 'n-bom', trajectoryId: 't-bom', parentId: null, editedFromId: null, depth: 0, action: '', observation: '$', reasoning: null, origin: 'imported', provenance: {}, curation: { starred: false, rating: null, tags: [], note: '' }, metrics: null, createdAt: '2024-01-01T00:00:00Z' }],
  }) + '\n';

const SAMPLES: [format: string, name: string, text: () => string][] = [
  ['atif', 'trajectory.json', () => fixture('atif', 'trajectory.json')],
  ['swe-agent', 'acme__tinyjson-42.traj', () => fixture('swe-agent', 'acme__tinyjson-42.traj')],
  ['asciinema', 'build-session.cast', () => fixture('asciinema', 'build-session.cast')],
  ['mcp-jsonrpc-log', 'notes-server.mcp.jsonl', () => fixture('mcp-jsonrpc-log', 'notes-server.mcp.jsonl')],
  ['agentworldbench', 'terminal_test.jsonl', () => generatedAwb(2, 2).join('\n') + '\n'],
  ['jsonl', 'export.jsonl', worldloomJsonl],
];

describe('every importer', () => {
  it.each(SAMPLES)('reads %s with a UTF-8 byte order mark as without one', (format, name, text) => {
    const plain = importFile(name, text());
    store.close();
    store = WorkspaceStore.create(join(dir, 'bom.worldloom'));
    const bom = importFile(`bom-${name}`, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text())]));
    expect(plain.format).toBe(format);
    expect(bom).toMatchObject({ format, imported: plain.imported, problems: plain.problems });
    expect(bom.imported).toBeGreaterThan(0);
    // Text dropped onto the UI carries the mark as U+FEFF.
    store.close();
    store = WorkspaceStore.create(join(dir, 'dropped.worldloom'));
    const dropped = importTrajectories(store, textSource(name, `\uFEFF${text()}`));
    expect(dropped).toMatchObject({ format, imported: plain.imported });
  });

  it.each(IMPORTERS.map((i) => [i.id]))('says an empty file holds nothing, when told it is %s', (format) => {
    const report = importFile('empty.txt', '', format);
    expect(report.imported).toBe(0);
    expect(report.problems).toEqual([{ line: null, reason: expect.stringMatching(/^the file is empty: nothing to import as /) }]);
  });
});

describe('bounds', () => {
  it('replays a cast asking for a 100000×100000 terminal at the largest size, and says so', () => {
    const cast = '{"version": 2, "width": 100000, "height": 100000}\n[0.1, "o", "$ "]\n[0.2, "r", "99999x99999"]\n[0.3, "o", "ls\\r\\n"]\n';
    const report = importFile('huge.cast', cast);
    expect(report.imported).toBe(1);
    expect(report.problems).toEqual([
      { line: 1, field: 'width', reason: `the header asks for a 100000×100000 terminal; it was replayed at ${MAX_TERMINAL_COLS}×${MAX_TERMINAL_ROWS}, the largest Worldloom renders` },
      { line: 3, field: 'data', reason: `a resize event asks for a 99999×99999 terminal; it was replayed at ${MAX_TERMINAL_COLS}×${MAX_TERMINAL_ROWS}, the largest Worldloom renders` },
    ]);
    const root = store.getNodes(report.trajectoryIds[0]!)[0]!;
    expect(root.provenance.recording).toMatchObject({ cols: MAX_TERMINAL_COLS, rows: MAX_TERMINAL_ROWS });
  });

  it('refuses JSON nested deeper than the limit, line by line and whole-file', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const lines = importFile('deep.jsonl', `${deep}\n${worldloomJsonl()}`, 'jsonl');
    expect(lines.imported).toBe(1);
    expect(lines.problems).toEqual([{ line: 1, reason: `JSON nested deeper than ${MAX_JSON_DEPTH} levels was refused` }]);
    const doc = importFile('deep.traj', `{"trajectory": ${deep}}`, 'swe-agent');
    expect(doc.problems).toEqual([{ line: null, reason: `JSON nested deeper than ${MAX_JSON_DEPTH} levels was refused` }]);
    // Brackets inside strings are text, not nesting.
    const brackets = worldloomJsonl().replace('"title":"bom"', `"title":${JSON.stringify('['.repeat(1000))}`).replaceAll('-bom', '-quoted');
    const quoted = importFile('quoted.jsonl', brackets, 'jsonl');
    expect(quoted).toMatchObject({ imported: 1, problems: [] });
  });

  it('skips a line past the line limit without holding it, and reads on', () => {
    const path = join(dir, 'long.jsonl');
    writeFileSync(path, `{"a": 1}\n${'x'.repeat(5000)}\n{"b": 2}\n${'y'.repeat(3000)}`);
    const lines = [...fileLines(path, 1000)];
    expect(lines).toEqual([
      { lineNo: 1, text: '{"a": 1}' },
      { lineNo: 2, text: '', error: 'line longer than 1000 bytes was skipped' },
      { lineNo: 3, text: '{"b": 2}' },
      { lineNo: 4, text: '', error: 'line longer than 1000 bytes was skipped' },
    ]);
  });

  it('reads U+FFFD in a JSONL line as a character, from a file and from dropped text alike', () => {
    const text = worldloomJsonl().replace('"observation":"$"', '"observation":"caf\uFFFD $"');
    const fromFile = importFile('fffd.jsonl', text);
    expect(fromFile).toMatchObject({ imported: 1, problems: [] });
    store.close();
    store = WorkspaceStore.create(join(dir, 'fffd.worldloom'));
    expect(importTrajectories(store, textSource('fffd.jsonl', text))).toMatchObject({ imported: 1, problems: [] });
    expect(store.getNode('n-bom')!.observation).toBe('caf\uFFFD $');
  });
});
