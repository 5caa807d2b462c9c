import { describe, expect, it } from 'vitest';
import { EMPTY_CURATION, type NodeRecord, type TrajectoryBundle } from '../../common/trajectory/model';
import { Scrubber } from './scrub';
import { scrubBundle } from './scrub-trajectory';

const node = (id: string, parentId: string | null, action: string, observation: string, extra: Partial<NodeRecord> = {}): NodeRecord => ({
  id, trajectoryId: 't1', parentId, editedFromId: null, depth: parentId ? 1 : 0, action, observation, reasoning: null, agentReasoning: null,
  origin: 'imported', provenance: { source: { format: 'claude-code', file: 's.jsonl', rawObservation: observation } }, curation: EMPTY_CURATION, metrics: null, createdAt: '2026-01-01T00:00:00Z', ...extra,
});

describe('scrubbing a trajectory as it is imported', () => {
  it('replaces secrets and addresses in every text (the raw source text too), keeps ids, keys and times, and counts what it changed', () => {
    const key = 'sk-proj-Zq8v3Kx0Lm5Np2Rt7Wy4Bc6De9Fg1Hj';
    const bundle: TrajectoryBundle = {
      trajectory: { id: 't1', title: 'ops for ada@corp.io', domain: 'terminal', systemPrompt: 'Host 10.1.2.3', worldSpec: null, createdAt: '2026-01-01T00:00:00Z', sourceKey: 'claude-code:abc' },
      nodes: [node('r', null, '', 'Working directory: /srv'), node('n1', 'r', `curl -H "Authorization: Bearer ${key}" https://10.1.2.3/`, `OPENAI_API_KEY=${key}`, { agentReasoning: 'mail ada@corp.io' })],
    };
    const scrubber = new Scrubber();
    const out = scrubBundle(bundle, scrubber);
    const text = JSON.stringify(out);
    expect(text).not.toContain(key);
    expect(text).not.toContain('ada@corp.io');
    expect(text).not.toContain('10.1.2.3');
    expect(out.trajectory.title).toBe('ops for person0@example.com');
    expect(out.nodes[1]!.agentReasoning).toBe('mail person0@example.com');
    expect(out.nodes[1]!.provenance.source?.rawObservation).toBe('OPENAI_API_KEY=[REDACTED_API_KEY]');
    expect(out.nodes.map((n) => [n.id, n.parentId, n.trajectoryId, n.createdAt])).toEqual(bundle.nodes.map((n) => [n.id, n.parentId, n.trajectoryId, n.createdAt]));
    expect(out.trajectory.sourceKey).toBe('claude-code:abc');
    expect(scrubber.report.counts).toMatchObject({ apiKey: 3, email: 2, ip: 2 });
    expect(scrubber.report.examplesChanged).toBe(1);
    // The report names the trajectory by id, never by a title that held what was scrubbed.
    expect(scrubber.report.changes.every((c) => c.exampleId === 't1')).toBe(true);
  });
});
