// The card's loading snippets must run on the export they describe: every column a snippet
// reads is a column of the rows written beside it, and the tool-call snippet, run in Python
// over those rows, parses every call's arguments.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DatasetExportInput } from '../../common/contract/dataset';
import { bundleSource, fixtureBundles, manyBundles } from '../../testing/dataset-fixtures';
import { exportAs } from '../../testing/registered-export';

const PYTHON = fileURLToPath(new URL('../../../native/.venv/bin/python', import.meta.url));
const noPython = existsSync(PYTHON) ? '' : ' — skipped: no native/.venv (npm run python:setup)';
const source = bundleSource([...fixtureBundles(), ...manyBundles(4)]);

async function agentExport(format: 'messages' | 'prompt-completion') {
  const out = join(mkdtempSync(join(tmpdir(), 'wl-card-snippet-')), 'export');
  await exportAs(source, DatasetExportInput.parse({ out, format, split: 1, examples: { builder: 'agent', reasoning: false } }));
  const rows = readFileSync(join(out, 'train.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const card = readFileSync(join(out, 'README.md'), 'utf8');
  const snippet = /Tool-call arguments[\s\S]*?```python\n([\s\S]*?)```/.exec(card)?.[1];
  if (!snippet) throw new Error(`no tool-call snippet in the ${format} card`);
  return { out, rows, snippet };
}

describe('the agent export card, tool-call snippet', () => {
  for (const format of ['messages', 'prompt-completion'] as const) {
    it(`reads only columns the ${format} export has`, async () => {
      const { rows, snippet } = await agentExport(format);
      const read = [...snippet.matchAll(/\br\['(\w+)'\]/g)].map((m) => m[1]!);
      expect(read.length).toBeGreaterThan(0);
      for (const row of rows) for (const column of read) expect(Object.keys(row)).toContain(column);
      expect(new Set(read)).toEqual(new Set(format === 'messages' ? ['messages'] : ['prompt', 'completion']));
    });

    it.skipIf(noPython !== '')(`runs in Python over the ${format} rows and parses every call's arguments${noPython}`, async () => {
      const { out, rows, snippet } = await agentExport(format);
      const calls = rows.flatMap((r) => Object.values(r).flatMap((v) => (Array.isArray(v) ? v : [])).flatMap((m) => (m as { tool_calls?: unknown[] }).tool_calls ?? []));
      expect(calls.length).toBeGreaterThan(0);
      const runner = join(out, 'run_snippet.py');
      // `ds.map` as datasets applies it, row by row; then count the calls whose arguments are now objects.
      writeFileSync(
        runner,
        [
          'import json, sys',
          'class Rows:',
          '    def __init__(self, rows): self.rows = rows',
          '    def map(self, f): return Rows([f(r) for r in self.rows])',
          'ds = Rows([json.loads(l) for l in open(sys.argv[1])])',
          snippet,
          'turns = [m for r in ds.rows for v in r.values() if isinstance(v, list) for m in v if isinstance(m, dict)]',
          'print(sum(1 for m in turns for c in (m.get("tool_calls") or []) if isinstance(c["function"]["arguments"], dict)))',
        ].join('\n'),
      );
      const parsed = execFileSync(PYTHON, [runner, join(out, 'train.jsonl')], { encoding: 'utf8' });
      expect(Number(parsed.trim())).toBe(calls.length);
    });
  }
});
