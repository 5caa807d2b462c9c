import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importTrajectories } from '../import-trajectories';
import { WorkspaceStore } from '../../store/workspace-store';
import { textSource } from '../../parsing/sources';
import { worldloomJsonlExporter } from './export';

function exportAll(store: WorkspaceStore): string {
  let out = '';
  worldloomJsonlExporter.exportTo(store.iterateBundles(), (c) => (out += c));
  return out;
}

describe('Worldloom JSONL', () => {
  it('round-trips a branching trajectory with curation and provenance exactly', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-jsonl-'));
    const a = WorkspaceStore.create(join(dir, 'a.worldloom'));
    const { nodes } = a.createTrajectory({ title: 'branchy', domain: 'os', systemPrompt: 'desktop', initialState: 'screen' });
    const s1 = a.addNode({ parentId: nodes[0]!.id, action: 'click File', observation: 'menu', origin: 'manual' });
    a.addNode({ parentId: nodes[0]!.id, action: 'click Edit', observation: 'menu 2', origin: 'simulated', provenance: { seed: 7, modelId: 'm' } });
    a.addNode({ parentId: s1.id, action: 'click Save', observation: 'saved', origin: 'edited', editedFromId: s1.id, reasoning: 'why' });
    a.setCuration(s1.id, { starred: true, rating: 5, tags: ['gold'], note: 'nice' });
    const text = exportAll(a);

    const b = WorkspaceStore.create(join(dir, 'b.worldloom'));
    const report = importTrajectories(b, textSource('export.jsonl', text));
    expect(report).toMatchObject({ format: 'jsonl', imported: 1, problems: [] });
    expect(exportAll(b)).toBe(text);
    // The same file rewritten with `": "` spacing (Python's json.dumps, jq) is still Worldloom's, not SWE-agent's.
    const spaced = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.stringify(JSON.parse(line) as unknown, null, 0).replace(/":/g, '": '))
      .join('\n');
    expect(spaced).toContain('"format": "worldloom.trajectory"');
    const c = WorkspaceStore.create(join(dir, 'c.worldloom'));
    expect(importTrajectories(c, textSource('export.jsonl', spaced))).toMatchObject({ format: 'jsonl', imported: 1, problems: [] });
    expect([...b.iterateBundles()]).toEqual([...a.iterateBundles()]);
  });

  it('refuses a line whose tree is broken, naming the field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-jsonl-'));
    const a = WorkspaceStore.create(join(dir, 'a.worldloom'));
    a.createTrajectory({ title: 't', domain: 'os', systemPrompt: '', initialState: '' });
    const line = JSON.parse(exportAll(a)) as { nodes: { parentId: string | null }[] };
    line.nodes[0]!.parentId = 'nowhere';
    const b = WorkspaceStore.create(join(dir, 'b.worldloom'));
    const report = importTrajectories(b, textSource('bad.jsonl', JSON.stringify(line)), { format: 'jsonl' });
    expect(report.imported).toBe(0);
    expect(report.problems[0]).toMatchObject({ line: 1, field: 'nodes' });
    expect(report.problems[0]!.reason).toMatch(/parentId nowhere/);
  });
});
