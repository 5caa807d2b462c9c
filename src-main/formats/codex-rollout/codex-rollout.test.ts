// Codex CLI rollouts imported: recognised by detection, each tool call paired with its result
// (../../parsing/agent-session.ts) as a step, and what is left out said.
import { describe, expect, it } from 'vitest';
import { fixture, runImporter } from '../../testing/importer-fixtures';
import { importerFor } from '../registry';
import { codexRolloutImporter } from './import';

const steps = (bundle: { nodes: { action: string; observation: string }[] }) => bundle.nodes.slice(1).map((n) => [n.action, n.observation]);
const whats = (skipped: { what: string }[]) => skipped.map((s) => s.what);

describe('Codex CLI rollout JSONL', () => {
  const text = fixture('codex-rollout', 'codex-rollout-2025-10-02.jsonl');

  it('is recognised without --format', () => {
    expect(importerFor('auto', 'rollout-2025-10-02T09-00-00-0199a1b2.jsonl', text).id).toBe('codex-rollout');
  });

  it('shell argv calls read as the command typed, apply_patch as its call, outputs unwrapped; the UI copies and harness messages are said', () => {
    const { bundles, problems, skipped } = runImporter(codexRolloutImporter, 'rollout.jsonl', text);
    expect(problems).toEqual([]);
    const { trajectory, nodes } = bundles[0]!;
    expect(trajectory).toMatchObject({ title: 'Codex CLI 0.46.0 · 0199a1b2-codex-fixture', domain: 'swe' });
    expect(nodes[0]!.observation).toBe('Working directory: /repo\n\nList the Python files and fix the typo in README.md');
    expect(steps(bundles[0]!)).toEqual([
      ['ls *.py', 'app.py\nutil.py\n'],
      ['{"name":"apply_patch","arguments":"*** Begin Patch\\n*** Update File: README.md\\n@@\\n-Teh app\\n+The app\\n*** End Patch\\n"}', 'Success. Updated the following files:\nM README.md\n'],
      ["rg -n Teh .", ''],
    ]);
    expect(nodes[1]!.agentReasoning).toBe('**Listing Python files**');
    expect(nodes[3]!.provenance.tool).toMatchObject({ isError: true });
    expect((nodes[0]!.provenance.codex as { harnessMessages: string[] }).harnessMessages).toHaveLength(2);
    expect(whats(skipped)).toEqual([
      '1 × developer message the harness wrote (instructions, environment context)',
      '1 × user message the harness wrote (instructions, environment context)',
      '2 × event_msg record',
      '1 × turn_context record',
      '1 × encrypted reasoning',
      "the agent's last words: Fixed the typo; app.py and util.py are the Python files.",
    ]);
  });
});
