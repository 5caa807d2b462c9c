import { describe, expect, it } from 'vitest';
import { DEFAULT_SWE_SYSTEM_PROMPT, sweAgentImporter } from './swe-agent';
import { fixture, runImporter } from '../testing/importer-fixtures';

const FILE = 'acme__tinyjson-42.traj';
const run = (text: string, name = FILE) => runImporter(sweAgentImporter, name, text);

describe('SWE-agent importer', () => {
  it('imports each step as action → observation with the thought as reasoning', () => {
    const { bundles, problems } = run(fixture(FILE));
    expect(problems).toEqual([]);
    const { trajectory, nodes } = bundles[0]!;
    expect(trajectory).toMatchObject({ domain: 'swe', title: 'acme__tinyjson-42 (SWE-agent, submitted)' });
    // The agent's own system message, not the demonstration that follows it.
    expect(trajectory.systemPrompt).toMatch(/^You are an autonomous programmer/);
    const [root, ...steps] = nodes;
    expect(root!.observation).toMatch(/^We're currently solving the following issue/);
    expect(root!.observation).not.toContain('demonstration');
    expect(root!.provenance.sweAgent).toEqual({ exitStatus: 'submitted', submitted: true, environment: 'swe_main' });
    expect(steps).toHaveLength(5);
    expect(steps.every((s) => s.origin === 'real')).toBe(true);
    expect(steps[0]!.action).toBe('search_dir "allow_nan" src');
    expect(steps[0]!.observation).toMatch(/^Found 3 matches for "allow_nan"/);
    expect(steps[0]!.reasoning).toBe('First I will find where dumps handles floats.');
    expect(steps[2]!.action).toBe('edit 42:43\n    if value != value:\n        if not allow_nan:\n            raise ValueError("Out of range float values are not JSON compliant")\n        return "NaN"\nend_of_edit');
    expect(steps[4]!.action).toBe('submit');
    expect(steps[4]!.observation).toMatch(/^diff --git/);
    expect(steps[3]!.provenance.timings).toEqual({ executionSeconds: 0.88 });
  });

  it('reports a malformed step by its JSON path and imports the others', () => {
    const doc = JSON.parse(fixture(FILE));
    doc.trajectory[1].action = 17;
    delete doc.history;
    const { bundles, problems } = run(JSON.stringify(doc));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: null, field: 'trajectory.1.action' });
    const { trajectory, nodes } = bundles[0]!;
    expect(nodes).toHaveLength(5);
    expect(trajectory.systemPrompt).toBe(DEFAULT_SWE_SYSTEM_PROMPT);
    expect(nodes[0]!.observation).toBe('');
  });

  it('reports broken JSON with the line it breaks on', () => {
    const { bundles, problems } = run('{\n  "trajectory": [\n    {"action": "ls",}\n  ]\n}');
    expect(bundles).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.reason).toMatch(/not valid JSON/);
    expect(problems[0]!.line).toBe(3);
  });

  it('reports a document without a trajectory list', () => {
    const { problems } = run(JSON.stringify({ history: [] }));
    expect(problems[0]).toMatchObject({ field: 'trajectory' });
  });
});
