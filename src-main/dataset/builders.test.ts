import { describe, expect, it } from 'vitest';
import { buildWorldModelMessages } from '../common/prompt/world-model-messages';
import { agentSystemPrompt, buildSamples } from './builders';
import { sampleEnds, compileSelection } from './selection';
import { fixtureBundles } from '../testing/dataset-fixtures';

const [t1] = fixtureBundles();
const all = compileSelection({ filter: '', scope: { kind: 'all' } });
const ids = (nodes: { id: string }[]) => nodes.map((n) => n.id);

describe('selection', () => {
  it('ends a step sample at every selected step and a path sample at the deepest selected node', () => {
    expect(ids(sampleEnds(t1!, all, 'step'))).toEqual(['t1-n1', 't1-n2', 't1-n3', 't1-n4']);
    expect(ids(sampleEnds(t1!, all, 'path'))).toEqual(['t1-n3', 't1-n4']);
    const starred = compileSelection({ filter: 'starred', scope: { kind: 'all' } });
    expect(ids(sampleEnds(t1!, starred, 'path'))).toEqual(['t1-n2']);
  });

  it('limits samples to a path, a subtree or marked nodes', () => {
    const scoped = (scope: Parameters<typeof compileSelection>[0]['scope']) => ids(sampleEnds(t1!, compileSelection({ filter: '', scope }), 'step'));
    expect(scoped({ kind: 'path', nodeId: 't1-n2' })).toEqual(['t1-n1', 't1-n2']);
    expect(scoped({ kind: 'subtree', nodeId: 't1-n2' })).toEqual(['t1-n2', 't1-n4']);
    expect(scoped({ kind: 'nodes', nodeIds: ['t1-n3', 'elsewhere'] })).toEqual(['t1-n3']);
  });
});

describe('sample builders', () => {
  it('builds a world-model step sample exactly as the engines prompt the model, plus the observation', () => {
    const end = t1!.nodes.find((n) => n.id === 't1-n2')!;
    const [sample] = buildSamples(t1!, [end], { builder: 'world-model', per: 'step', reasoning: true });
    const prompt = buildWorldModelMessages({
      systemPrompt: t1!.trajectory.systemPrompt,
      worldSpec: t1!.trajectory.worldSpec,
      initialState: 'user@box:~$',
      history: [{ action: 'ls', observation: 'notes.txt  src' }],
      action: 'cat notes.txt',
    });
    expect(sample!.messages.slice(0, -1)).toEqual(prompt);
    expect(sample!.messages.at(-1)).toEqual({
      role: 'assistant',
      content: '**Environment Observation:**\nremember the milk and the eggs and the bread for the weekend trip',
      reasoning: 'notes.txt was listed; a shopping note is plausible.',
    });
    expect(sample!.messages[0]!.content).toContain('- user: user');
    expect(sample!.messages[0]!.content).toContain('## Start\nuser@box:~$');
    expect(sample).toMatchObject({ id: 't1-n2', trajectoryId: 't1', domain: 'terminal', kind: 'step', origin: 'imported' });
  });

  it('leaves reasoning out when asked, and teaches every observation of a path', () => {
    const end = t1!.nodes.find((n) => n.id === 't1-n4')!;
    const [sample] = buildSamples(t1!, [end], { builder: 'world-model', per: 'path', reasoning: false });
    expect(sample!.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    expect(sample!.messages.some((m) => m.reasoning)).toBe(false);
    expect(sample!.messages[5]!.content).toBe('### Turn 3\n**Action:**\ncurl -s http://intranet/config');
    expect(sample!.perturbations).toEqual(['terminal.leaky-config']);
  });

  it('builds agent samples: observations in, the next action out', () => {
    const end = t1!.nodes.find((n) => n.id === 't1-n4')!;
    const [step] = buildSamples(t1!, [end], { builder: 'agent', per: 'step', reasoning: true });
    const call = (command: string) => [{ name: 'execute_command', arguments: { command } }];
    expect(step!.messages).toEqual([
      { role: 'system', content: agentSystemPrompt('terminal') },
      { role: 'user', content: 'user@box:~$' },
      { role: 'assistant', content: 'ls', toolCalls: call('ls') },
      { role: 'tool', name: 'execute_command', content: 'notes.txt  src' },
      { role: 'assistant', content: 'cat notes.txt', toolCalls: call('cat notes.txt') },
      { role: 'tool', name: 'execute_command', content: 'remember the milk and the eggs and the bread for the weekend trip' },
      { role: 'assistant', content: 'curl -s http://intranet/config', toolCalls: call('curl -s http://intranet/config') },
    ]);
    // The terminal's natural tool, and the world model's reasoning (on cat notes.txt) nowhere in an agent sample.
    expect(step!.tools!.map((t) => t.function.name)).toEqual(['execute_command']);
    expect(step!.completionFrom).toBe(6);
    expect(JSON.stringify(step)).not.toContain('shopping note');
  });
});
