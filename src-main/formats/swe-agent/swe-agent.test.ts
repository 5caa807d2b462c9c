import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SWE_SYSTEM_PROMPT, splitTaskMessage, sweAgentImporter } from './import';
import { fixture, runImporter } from '../../testing/importer-fixtures';
import { importerFor } from '../registry';
import { textSource } from '../../parsing/sources';
import { importTrajectories } from '../import-trajectories';
import { WorkspaceStore } from '../../store/workspace-store';
import { realWorld, realWorldNote } from '../../testing/real-world';

const FILE = 'acme__tinyjson-42.traj';
const run = (text: string, name = FILE) => runImporter(sweAgentImporter, name, text);

describe('SWE-agent importer', () => {
  it("imports each step as action → observation with the thought as the agent's reasoning", () => {
    const { bundles, problems, skipped } = run(fixture('swe-agent', FILE));
    expect(problems).toEqual([]);
    const { trajectory, nodes } = bundles[0]!;
    expect(trajectory).toMatchObject({ domain: 'swe', title: 'acme__tinyjson-42 (SWE-agent, submitted)' });
    // The environment is described in our words plus the commands it offers, never the agent's prompt.
    expect(trajectory.systemPrompt.startsWith(DEFAULT_SWE_SYSTEM_PROMPT)).toBe(true);
    expect(trajectory.systemPrompt).toContain('COMMANDS:\nopen <path> [<line>]');
    expect(trajectory.systemPrompt).not.toMatch(/You are an autonomous programmer/);
    const [root, ...steps] = nodes;
    expect(root!.observation).toMatch(/^We're currently solving the following issue/);
    expect(root!.observation).toMatch(/\(Current directory: \/tinyjson\)\nbash-\$$/);
    expect(root!.observation).not.toContain('demonstration');
    expect(root!.provenance.sweAgent).toMatchObject({ exitStatus: 'submitted', submitted: true, environment: 'swe_main' });
    expect((root!.provenance.sweAgent as Record<string, string>).agentSystemPrompt).toMatch(/^You are an autonomous programmer/);
    expect(skipped.map((s) => s.what)).toEqual(["the agent's system prompt", '1 demonstration message (is_demo)']);
    expect(steps).toHaveLength(5);
    expect(steps.every((s) => s.origin === 'real')).toBe(true);
    expect(steps[0]!.action).toBe('search_dir "allow_nan" src');
    expect(steps[0]!.observation).toMatch(/^Found 3 matches for "allow_nan"/);
    expect(steps[0]!.agentReasoning).toBe('First I will find where dumps handles floats.');
    // The world model's reasoning is the world model's: an agent's thought never lands there.
    expect(steps.every((s) => s.reasoning === null)).toBe(true);
    expect(steps[2]!.action).toBe('edit 42:43\n    if value != value:\n        if not allow_nan:\n            raise ValueError("Out of range float values are not JSON compliant")\n        return "NaN"\nend_of_edit');
    expect(steps[4]!.action).toBe('submit');
    expect(steps[4]!.observation).toMatch(/^diff --git/);
    expect(steps[3]!.provenance.timings).toEqual({ executionSeconds: 0.88 });
    expect(steps[0]!.provenance.sweAgent).toEqual({ state: { open_file: '/tinyjson/src/tinyjson/encoder.py', working_dir: '/tinyjson' } });
  });

  it('reports a malformed step by its JSON path in plain words and imports the others', () => {
    const doc = JSON.parse(fixture('swe-agent', FILE));
    doc.trajectory[1].action = 17;
    delete doc.history;
    const { bundles, problems } = run(JSON.stringify(doc));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ line: null, field: 'trajectory.1.action', reason: 'trajectory.1.action should be text, not a number' });
    const { trajectory, nodes } = bundles[0]!;
    expect(nodes).toHaveLength(5);
    expect(trajectory.systemPrompt).toBe(DEFAULT_SWE_SYSTEM_PROMPT);
    expect(nodes[0]!.observation).toBe('');
  });

  it('says a step with no action (a format error the harness answered) was left out', () => {
    const doc = JSON.parse(fixture('swe-agent', FILE));
    doc.trajectory[1].action = '';
    doc.trajectory[1].observation = 'Your output was not formatted correctly.\nTry again.';
    const { bundles, skipped } = run(JSON.stringify(doc));
    expect(bundles[0]!.nodes).toHaveLength(5);
    expect(skipped).toContainEqual({ kind: 'skipped', line: null, what: 'trajectory.1 (a step with no action)', reason: 'nothing ran in the environment; the harness answered: Your output was not formatted correctly.' });
  });

  it('reports broken JSON with the line it breaks on', () => {
    const { bundles, problems } = run('{\n  "trajectory": [\n    {"action": "ls",}\n  ]\n}');
    expect(bundles).toEqual([]);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.reason).toMatch(/not valid JSON/);
    expect(problems[0]!.line).toBe(3);
  });

  it('says what a document without steps or history lacks, in words a user reads', () => {
    const { problems } = run(JSON.stringify({ info: {} }));
    expect(problems[0]).toMatchObject({ field: 'trajectory' });
    expect(problems[0]!.reason).toMatch(/neither a "trajectory" list of steps nor a "history" of messages/);
    expect(problems[0]!.reason).not.toMatch(/Invalid input|expected array/);
  });

  it('reads the task and the shell status out of the first message, leaving the instructions', () => {
    const text = 'ISSUE:\nfix it\n\n\nINSTRUCTIONS:\nwork alone\n\n(Open file: n/a)\n(Current directory: /repo)\nbash-$';
    expect(splitTaskMessage(text)).toEqual({ initialState: 'ISSUE:\nfix it\n\n(Open file: n/a)\n(Current directory: /repo)\nbash-$', instructions: 'INSTRUCTIONS:\nwork alone' });
  });
});

const REAL = realWorld('swe-agent');
const real = (name: string) => readFileSync(join(REAL, name), 'utf8');

describe.skipIf(!existsSync(REAL))(`SWE-agent importer on real files (${realWorldNote('swe-agent')})`, () => {
  const withTrajectory = ['6e44b9__sweagenttestrepo-1c2844.traj', 'pydicom__pydicom-1458.traj', 'marshmallow-code__marshmallow-1867.fc-replace-from-source.traj', 'ctf-networking_1.traj'];

  it.each(withTrajectory)('%s: every step kept, action, observation and thought unchanged', (name) => {
    const doc = JSON.parse(real(name)) as { trajectory: { action: string; observation: string; thought: string }[]; history: { role: string; content: unknown }[] };
    const { bundles, problems } = run(real(name), name);
    expect(problems).toEqual([]);
    const [root, ...steps] = bundles[0]!.nodes;
    expect(steps).toHaveLength(doc.trajectory.length);
    doc.trajectory.forEach((step, i) => {
      expect(steps[i]!.action).toBe(step.action.replace(/\s+$/, ''));
      expect(steps[i]!.observation).toBe(step.observation ?? '');
      expect(steps[i]!.agentReasoning ?? '').toBe(step.thought.trim());
      expect(steps[i]!.reasoning).toBeNull();
    });
    const agentPrompt = doc.history.find((m) => m.role === 'system')!.content as string;
    expect(bundles[0]!.trajectory.systemPrompt).not.toContain(agentPrompt.split('\n')[0]);
    expect(root!.observation).not.toContain('INSTRUCTIONS:');
    expect(root!.observation).toMatch(/\(Current directory: [^)]+\)\nbash-\$$/);
  });

  it("the agent's thoughts reach the workspace as agentReasoning, and the world model's reasoning stays empty", () => {
    const name = 'pydicom__pydicom-1458.traj';
    const store = WorkspaceStore.create(join(mkdtempSync(join(tmpdir(), 'wl-swe-')), 'w.worldloom'));
    const report = importTrajectories(store, textSource(name, real(name)));
    expect(report).toMatchObject({ format: 'swe-agent', imported: 1, problems: [] });
    expect(report.skipped.map((s) => s.what)).toContain('1 demonstration message (is_demo)');
    const nodes = store.getNodes(store.listTrajectories()[0]!.id).slice(1);
    expect(nodes).toHaveLength(12);
    expect(nodes[0]!.agentReasoning).toMatch(/^First, I'll create a new Python script to reproduce the bug/);
    expect(nodes.every((n) => n.reasoning === null && typeof n.agentReasoning === 'string')).toBe(true);
    store.close();
  });

  it('string execution times (newer files) are read as seconds', () => {
    const { bundles } = run(real('6e44b9__sweagenttestrepo-1c2844.traj'), '6e44b9__sweagenttestrepo-1c2844.traj');
    expect(bundles[0]!.nodes[1]!.provenance.timings).toEqual({ executionSeconds: 0.2814128329991945 });
  });

  it('function_calling_simple.traj: a history without a trajectory list imports its 5 action/tool pairs', () => {
    const name = 'function_calling_simple.traj';
    const doc = JSON.parse(real(name)) as { history: { role: string; content: string; action?: string; thought?: string }[] };
    const { bundles, problems, skipped } = run(real(name), name);
    expect(problems).toEqual([]);
    const [root, ...steps] = bundles[0]!.nodes;
    const actions = doc.history.filter((m) => m.role === 'assistant');
    const tools = doc.history.filter((m) => m.role === 'tool');
    expect(steps).toHaveLength(5);
    actions.forEach((m, i) => {
      expect(steps[i]!.action).toBe(m.action);
      expect(steps[i]!.agentReasoning).toBe(m.thought!.trim());
      expect(steps[i]!.observation).toBe(tools[i]!.content);
    });
    expect(root!.observation).toMatch(/^We're currently solving the following issue[\s\S]*SyntaxError: invalid syntax/);
    expect(root!.observation).not.toContain('INSTRUCTIONS');
    expect(bundles[0]!.trajectory.systemPrompt).toContain('Tools the agent called: find_file, open, edit, bash, submit.');
    expect(skipped.map((s) => s.what)).toEqual(["the agent's system prompt", "the agent's instructions in its first message"]);
  });

  it('every file in the folder is detected as SWE-agent or mini-swe-agent', () => {
    for (const name of [...withTrajectory, 'function_calling_simple.traj']) expect(importerFor('auto', name, real(name).slice(0, 65536)).id).toBe('swe-agent');
    expect(importerFor('auto', 'harbor-rfc-mini-swe-agent-trajectory.json', real('harbor-rfc-mini-swe-agent-trajectory.json')).id).toBe('mini-swe-agent');
  });
});
