// goose .jsonl sessions (before 1.10): each call paired with its toolResponse by id, arguments
// as written and the result as the model was given it; goose's notes, the person's copies,
// calls goose could not read and the call the session ended on are said.
import { describe, expect, it } from 'vitest';
import { gooseJsonlSession } from '../../testing/goose-sessions';
import { runImporter } from '../../testing/importer-fixtures';
import { importerFor } from '../registry';
import { gooseJsonlImporter } from './import';

const text = gooseJsonlSession('/home/ana/shop');

describe('goose .jsonl session', () => {
  it('is recognised without --format, from its first lines', () => {
    expect(importerFor('auto', '20250513_101500.jsonl', text).id).toBe('goose-jsonl');
    // A session that has not called a tool yet: its SessionMetadata line says it.
    expect(importerFor('auto', 'x.jsonl', text.split('\n').slice(0, 2).join('\n')).id).toBe('goose-jsonl');
  });

  it('pairs each call with its result by id: arguments as written, only what the model was given, errors kept as errors', () => {
    const { bundles, problems, skipped } = runImporter(gooseJsonlImporter, '20250513_101500.jsonl', text);
    expect(problems).toEqual([]);
    expect(bundles).toHaveLength(1);
    const b = bundles[0]!;
    expect(b.trajectory.title).toBe('goose · Fix the parser test');
    const nodes = b.nodes;
    expect(nodes[0]!.observation).toBe('Working directory: /home/ana/shop\n\nWhy does the parser test fail?');
    expect(nodes.slice(1).map((n) => [n.action, n.observation])).toEqual([
      // The shell's output once: the person's copy (audience user) is not what the model saw.
      ['npm test -- parser', 'FAIL parser.test.ts\n  expected 3, got 2\n'],
      ['{"name":"developer__text_editor","arguments":{"command":"view","path":"src/parser.ts","line":1.0}}', 'export const count = (s) => s.split(",").length - 1;\n'],
      ['cat /etc/shadow', 'Execution failed: permission denied'],
    ]);
    expect(nodes[1]!.agentReasoning).toBe('Run the tests first.\n\nRunning them.');
    expect(nodes.slice(1).map((n) => (n.provenance as { tool: { isError?: boolean } }).tool.isError ?? false)).toEqual([true, false, true]);
    expect(nodes[1]!.provenance).toMatchObject({ source: { format: 'goose-jsonl', file: '20250513_101500.jsonl', line: 3 }, tool: { name: 'developer__shell', callId: 'toolu_1' } });
    expect(nodes[0]!.provenance).toMatchObject({ goose: { sessionId: '20250513_101500', workingDir: '/home/ana/shop', name: 'Fix the parser test' } });
    const whats = skipped.map((s) => s.what);
    expect(whats).toEqual(
      expect.arrayContaining([
        '1 × image',
        '1 × a copy of a tool result shown to the person (audience: user), not given to the model',
        '1 × systemNotification item',
        '1 × text goose wrote for the model only',
        '1 × redacted reasoning',
        '1 × tool call goose could not read',
        "1 × goose's answer to a call it could not read",
        '1 × request for the person (a confirmation or a question)',
        'the call rm -rf build',
      ]),
    );
  });

  it('says what is wrong with a line that is not a goose message, and keeps the rest', () => {
    const broken = text.replace('"role":"assistant","created":1762600007', '"role":"system","created":1762600007');
    const { bundles, problems } = runImporter(gooseJsonlImporter, 's.jsonl', broken);
    // The call on that line is gone, so its result has nothing to pair with: said, not guessed.
    expect(problems).toEqual([
      expect.objectContaining({ line: 9, reason: expect.stringContaining('"role" (user or assistant)') }),
      expect.objectContaining({ line: 10, reason: expect.stringContaining('"toolu_4", which no earlier call made') }),
    ]);
    expect(bundles[0]!.nodes).toHaveLength(3);
    expect(bundles[0]!.nodes.map((n) => n.action)).not.toContain('cat /etc/shadow');
  });
});
