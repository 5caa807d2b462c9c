import { describe, expect, it } from 'vitest';
import { buildWorldModelMessages } from '../common/prompt/world-model-messages';
import { normalizeAction } from './action-layout';
import { actionOfCall } from './agent-tools';
import { agentSystemPrompt, buildExamples, lostReasoning } from './builders';
import { preferencePairs, preferred } from './preference-pairs';
import { exampleEnds, compileSelection } from './selection';
import { fixtureBundles, treeBundle } from '../testing/dataset-fixtures';

const [t1] = fixtureBundles();
const all = compileSelection({ filter: '', scope: { kind: 'all' } });
const ids = (nodes: { id: string }[]) => nodes.map((n) => n.id);

describe('selection', () => {
  it('ends a step example at every selected step and a path example at the deepest selected node', () => {
    expect(ids(exampleEnds(t1!, all, 'step'))).toEqual(['t1-n1', 't1-n2', 't1-n3', 't1-n4']);
    expect(ids(exampleEnds(t1!, all, 'path'))).toEqual(['t1-n3', 't1-n4']);
    const starred = compileSelection({ filter: 'starred', scope: { kind: 'all' } });
    expect(ids(exampleEnds(t1!, starred, 'path'))).toEqual(['t1-n2']);
  });

  it('limits examples to a path, a subtree or marked nodes', () => {
    const scoped = (scope: Parameters<typeof compileSelection>[0]['scope']) => ids(exampleEnds(t1!, compileSelection({ filter: '', scope }), 'step'));
    expect(scoped({ kind: 'path', nodeId: 't1-n2' })).toEqual(['t1-n1', 't1-n2']);
    expect(scoped({ kind: 'subtree', nodeId: 't1-n2' })).toEqual(['t1-n2', 't1-n4']);
    expect(scoped({ kind: 'nodes', nodeIds: ['t1-n3', 'elsewhere'] })).toEqual(['t1-n3']);
  });
});

describe('example builders', () => {
  it('builds a world-model step example exactly as the engines prompt the model, plus the observation', () => {
    const end = t1!.nodes.find((n) => n.id === 't1-n2')!;
    const [example] = buildExamples(t1!, [end], { builder: 'world-model', per: 'step', reasoning: true });
    const prompt = buildWorldModelMessages({
      systemPrompt: t1!.trajectory.systemPrompt,
      worldSpec: t1!.trajectory.worldSpec,
      initialState: 'user@box:~$',
      history: [{ action: 'ls', observation: 'notes.txt  src' }],
      action: 'cat notes.txt',
    });
    expect(example!.messages.slice(0, -1)).toEqual(prompt);
    expect(example!.messages.at(-1)).toEqual({
      role: 'assistant',
      content: '**Environment Observation:**\nremember the milk and the eggs and the bread for the weekend trip',
      reasoning: 'notes.txt was listed; a shopping note is plausible.',
    });
    expect(example!.messages[0]!.content).toContain('- user: user');
    expect(example!.messages[0]!.content).toContain('## Start\nuser@box:~$');
    expect(example).toMatchObject({ id: 't1-n2', trajectoryId: 't1', domain: 'terminal', kind: 'step', origin: 'imported' });
  });

  it('leaves reasoning out when asked, and teaches every observation of a path', () => {
    const end = t1!.nodes.find((n) => n.id === 't1-n4')!;
    const [example] = buildExamples(t1!, [end], { builder: 'world-model', per: 'path', reasoning: false });
    expect(example!.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    expect(example!.messages.some((m) => m.reasoning)).toBe(false);
    expect(example!.messages[5]!.content).toBe('### Turn 3\n**Action:**\ncurl -s http://intranet/config');
    expect(example!.perturbations).toEqual(['terminal.leaky-config']);
  });

  it('builds agent examples: observations in, the next action out', () => {
    const end = t1!.nodes.find((n) => n.id === 't1-n4')!;
    const [step] = buildExamples(t1!, [end], { builder: 'agent', per: 'step', reasoning: true });
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
    // The terminal's natural tool, and the world model's reasoning (on cat notes.txt) nowhere in an agent example.
    expect(step!.tools!.map((t) => t.function.name)).toEqual(['execute_command']);
    expect(step!.completionFrom).toBe(6);
    expect(JSON.stringify(step)).not.toContain('shopping note');
  });
});

describe('one layout for actions, reasoning where it belongs', () => {
  const fenced = treeBundle('f', 'terminal', 'A shell.', '$', [
    { action: '```bash\nls -la\n```', observation: 'total 0', children: [{ action: 'cat a.txt', observation: 'hello' }] },
  ]);

  it('writes an imported fenced action exactly as a recorded one', () => {
    const recorded = treeBundle('r', 'terminal', 'A shell.', '$', [{ action: 'ls -la', observation: 'total 0', children: [{ action: 'cat a.txt', observation: 'hello' }] }]);
    const last = (b: typeof fenced) => buildExamples(b, [b.nodes.at(-1)!], { builder: 'world-model', per: 'step', reasoning: false })[0]!.messages;
    expect(last(fenced)).toEqual(last(recorded));
    expect(last(fenced)[1]!.content).toBe('### Turn 1\n**Action:**\nls -la');
    const [agent] = buildExamples(fenced, [fenced.nodes[1]!], { builder: 'agent', per: 'step', reasoning: false });
    expect(agent!.messages.at(-1)!.toolCalls).toEqual([{ name: 'execute_command', arguments: { command: 'ls -la' } }]);
    expect(normalizeAction('~~~\npwd\n~~~')).toBe('pwd');
    expect(normalizeAction('echo ```not a fence```')).toBe('echo ```not a fence```');
  });

  it("keeps the agent's reasoning for agent examples and the world model's for world-model examples, never crossed", () => {
    const b = treeBundle('x', 'terminal', 'A shell.', '$', [{ action: 'ls', observation: 'a.txt', reasoning: 'A directory listing of one file.' }]);
    b.nodes[1]!.agentReasoning = 'The error suggests a missing file. List the directory.';
    const [agent] = buildExamples(b, [b.nodes[1]!], { builder: 'agent', per: 'step', reasoning: true });
    const [world] = buildExamples(b, [b.nodes[1]!], { builder: 'world-model', per: 'step', reasoning: true });
    expect(agent!.messages.at(-1)!.reasoning).toBe('The error suggests a missing file. List the directory.');
    expect(world!.messages.at(-1)!.reasoning).toBe('A directory listing of one file.');
    expect(JSON.stringify(world)).not.toContain('The error suggests');
    expect(JSON.stringify(agent)).not.toContain('A directory listing');
  });

  it('refuses a path whose earlier reasoning chat templates would drop, and allows one whose last step alone reasons', () => {
    const [t] = fixtureBundles();
    const deep = t!.nodes.find((n) => n.id === 't1-n4')!;
    expect(() => buildExamples(t!, [deep], { builder: 'world-model', per: 'path', reasoning: true })).toThrow(
      /keep 1 reasoning blocks.*only after the last user turn, so 1 of them would be dropped.*one example per step/,
    );
    const shallow = t!.nodes.find((n) => n.id === 't1-n2')!;
    expect(buildExamples(t!, [shallow], { builder: 'world-model', per: 'path', reasoning: true })[0]!.messages.at(-1)!.reasoning).toMatch(/shopping note/);
    expect(lostReasoning([deep])).toBeNull();
  });

  it("calls an MCP trajectory's recorded tools with the recorded arguments", () => {
    const listed = [{ name: 'read_file', description: 'Read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }];
    const b = treeBundle('m', 'mcp', `MCP environment.\n\nTools (from tools/list):\n${JSON.stringify(listed, null, 2)}\n`, '', [
      { action: '{"name":"read_file","arguments":{"path":"/a.txt"}}', observation: '{"content":[{"type":"text","text":"hi"}]}' },
    ]);
    const [s] = buildExamples(b, [b.nodes[1]!], { builder: 'agent', per: 'step', reasoning: false });
    expect(s!.tools).toEqual([{ type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: listed[0]!.inputSchema } }]);
    expect(s!.messages.at(-1)!.toolCalls).toEqual([{ name: 'read_file', arguments: { path: '/a.txt' } }]);
    expect(actionOfCall(s!.messages.at(-1)!.toolCalls![0]!)).toBe('{"name":"read_file","arguments":{"path":"/a.txt"}}');
  });

  it('reads web recorder actions back as browser tool calls', () => {
    const b = treeBundle('w', 'web', 'A browser.', '', [{ action: 'goto https://example.com', observation: 'page', children: [{ action: 'type e3 "cats"', observation: 'typed' }] }]);
    const [s] = buildExamples(b, [b.nodes[2]!], { builder: 'agent', per: 'step', reasoning: false });
    expect(s!.messages.filter((m) => m.toolCalls).map((m) => m.toolCalls![0])).toEqual([
      { name: 'navigate', arguments: { url: 'https://example.com' } },
      { name: 'type', arguments: { ref: 'e3', text: 'cats' } },
    ]);
    expect(s!.messages.filter((m) => m.toolCalls).map((m) => actionOfCall(m.toolCalls![0]!))).toEqual(['goto https://example.com', 'type e3 "cats"']);
  });
});

describe('preference pairs from siblings', () => {
  it('pairs siblings of the same action that were rated or starred against each other', () => {
    const [t] = fixtureBundles();
    // t1-n2 (starred, rated 5) and t1-n3 (neither) are two samples of "cat notes.txt".
    const pairs = preferencePairs(t!, exampleEnds(t!, all, 'step'));
    expect(pairs.map(([c, r]) => [c.id, r.id])).toEqual([['t1-n2', 't1-n3']]);
    const [s] = buildExamples(t!, exampleEnds(t!, all, 'step'), { builder: 'preference', per: 'step', reasoning: false });
    expect(s!.id).toBe('t1-n2>t1-n3');
    expect(s!.messages.at(-1)!.content).toBe('**Environment Observation:**\nremember the milk and the eggs and the bread for the weekend trip');
    expect(s!.rejected!.messages).toEqual([{ role: 'assistant', content: '**Environment Observation:**\nremember the milk and the eggs and the bread for the weekend trip!' }]);
    expect(s!.completionFrom).toBe(s!.messages.length - 1);
  });

  it('prefers the sample marked Prefer, then the higher rating, then the star, and pairs nothing else', () => {
    const node = (rating: number | null, starred: boolean, tags: string[] = []) => ({ curation: { rating, starred, tags, note: '' } });
    expect(preferred(node(1, false, ['preferred']), node(5, true))).toBe(1);
    expect(preferred(node(5, true), node(null, false, ['preferred']))).toBe(-1);
    expect(preferred(node(4, false), node(2, true))).toBe(1);
    expect(preferred(node(3, false), node(3, true))).toBe(-1);
    expect(preferred(node(null, true), node(5, false))).toBe(1);
    expect(preferred(node(3, false), node(3, false))).toBe(0);
    expect(preferred(node(null, false), node(null, false))).toBe(0);
  });
});
