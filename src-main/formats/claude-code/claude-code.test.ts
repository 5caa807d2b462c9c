// Claude Code session files imported: recognised by detection, each tool call paired with its result
// (../../parsing/agent-session.ts) as a step, and what is left out said.
import { describe, expect, it } from 'vitest';
import { fixture, runImporter } from '../../testing/importer-fixtures';
import { importerFor } from '../registry';
import { claudeCodeImporter } from './import';

const steps = (bundle: { nodes: { action: string; observation: string }[] }) => bundle.nodes.slice(1).map((n) => [n.action, n.observation]);
const whats = (skipped: { what: string }[]) => skipped.map((s) => s.what);

describe('Claude Code session JSONL', () => {
  const text = fixture('claude-code', 'claude-code-session.jsonl');

  it('is recognised without --format', () => {
    expect(importerFor('auto', '5f0c9a1e.jsonl', text).id).toBe('claude-code');
  });

  it('each answered tool call is a step; harness calls, meta and sidechain records, slash commands and the unanswered call are said', () => {
    const { bundles, problems, skipped } = runImporter(claudeCodeImporter, '5f0c9a1e.jsonl', text);
    expect(problems).toEqual([]);
    expect(bundles).toHaveLength(1);
    const { trajectory, nodes } = bundles[0]!;
    expect(trajectory).toMatchObject({ title: 'Fix the add() bug in calc.py (Claude Code)', domain: 'swe' });
    expect(nodes[0]!.observation).toBe('Working directory: /work/calc\n\nFix the failing test in calc.py');
    // Counted by hand: Bash, Read, Edit answered (TodoWrite is the harness's, the last Bash was
    // interrupted), and the person's own `git diff --stat` in bash mode.
    expect(steps(bundles[0]!)).toEqual([
      ['pytest -q', 'F\n1 failed in 0.02s'],
      ['{"name":"Read","arguments":{"file_path":"/work/calc/calc.py"}}', '     1→def add(a, b):\n     2→    return a - b'],
      ['{"name":"Edit","arguments":{"file_path":"/work/calc/calc.py","old_string":"a - b","new_string":"a + b"}}', 'The file /work/calc/calc.py has been updated.'],
      ['git diff --stat', ' calc.py | 2 +-\n 1 file changed'],
    ]);
    expect(nodes[1]!.agentReasoning).toBe('The test fails; run it first.\n\nLet me run the tests.');
    expect(nodes[1]!.provenance.tool).toEqual({ name: 'Bash', callId: 'toolu_1', isError: true });
    expect(whats(skipped)).toEqual([
      'the harness call TodoWrite and its answer: Todos have been modified successfully.',
      'a later user message: Also run it once more',
      '1 × session summary',
      '1 × file-history-snapshot record',
      '1 × message the harness added (isMeta)',
      '1 × subagent (sidechain) message',
      '1 × slash command or its output',
      '1 × interruption by the person',
      '1 × summary of the conversation so far (/compact)',
      'the call pytest -q',
      "the agent's last words: Fixed: add() now adds.",
    ]);
  });
});
