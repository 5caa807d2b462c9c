import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { importTrajectories } from '../import-trajectories';
import { WorkspaceStore } from '../../store/workspace-store';
import { awbLines } from '../../testing/awb-fixtures';
import { actionFromPrompt, observationFromResponse } from '../../common/trajectory/turn-format';
import { agentWorldBenchExporter } from './export';
import { fileHead, fileSource, textSource } from '../../parsing/sources';

let store: WorkspaceStore;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wl-awb-'));
  store = WorkspaceStore.create(join(dir, 'w.worldloom'));
});

const first = awbLines({ id: 'a', turns: [['ls', 'x y'], ['cat x', 'hello'], ['rm y', '']] });
const second = awbLines({ id: 'b', domain: 'bench/mcp', turns: [['{"name":"list"}', '{"content":[]}']] });

describe('AgentWorldBench import', () => {
  it('merges the per-turn lines of one trajectory into one trajectory, wherever they are', () => {
    const lines = [first[2], second[0], first[0], first[1]].join('\n');
    const report = importTrajectories(store, textSource('mixed_test.jsonl', lines));
    expect(report).toMatchObject({ format: 'agentworldbench', imported: 2, problems: [] });
    const list = store.listTrajectories();
    expect(list.map((t) => [t.domain, t.steps])).toEqual([
      ['terminal', 3],
      ['mcp', 1],
    ]);
    const nodes = store.getNodes(list[0]!.id);
    expect(nodes.slice(1).map((n) => [n.action, n.observation, n.origin])).toEqual([
      ['ls', 'x y', 'imported'],
      ['cat x', 'hello', 'imported'],
      ['rm y', '', 'imported'],
    ]);
    expect(list[0]!.systemPrompt).toBe('You simulate a terminal environment.');
  });

  it('adds nothing when the same file is imported again', () => {
    importTrajectories(store, textSource('t_test.jsonl', first.join('\n')));
    const again = importTrajectories(store, textSource('t_test.jsonl', first.join('\n')));
    expect(again).toMatchObject({ imported: 0, alreadyPresent: 1 });
    expect(store.info().trajectories).toBe(1);
  });

  it('reports each bad line with its number and reason, and imports the good ones', () => {
    const path = join(dir, 'mixed_test.jsonl');
    const missingField = JSON.parse(second[0]!) as Record<string, unknown>;
    delete missingField.system_str;
    const wrongLength = { ...JSON.parse(first[0]!), response: ['only one'] };
    const body = Buffer.concat([
      Buffer.from(first[0] + '\n'),
      Buffer.from('{"task": "terminal", broken\n'),
      Buffer.from(JSON.stringify(missingField) + '\n'),
      Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]),
      Buffer.from(JSON.stringify(wrongLength) + '\n'),
      Buffer.from(JSON.stringify({ ...JSON.parse(second[0]!), task: 'kitchen' }) + '\n'),
      Buffer.from(second[0] + '\n'),
    ]);
    writeFileSync(path, body);
    const report = importTrajectories(store, fileSource(path), { head: fileHead(path) });
    expect(report.imported).toBe(2);
    expect(report.problems.map((p) => [p.line, p.field ?? null])).toEqual([
      [2, null],
      [3, 'system_str'],
      [4, null],
      [5, 'response'],
      [6, 'task'],
    ]);
    expect(report.problems[0]!.reason).toMatch(/not valid JSON/);
    expect(report.problems[2]!.reason).toMatch(/UTF-8/);
    expect(report.problems[4]!.reason).toMatch(/unknown domain "kitchen"/);
  });

  it('exports back to the same lines it imported', () => {
    const text = [...first, ...second].join('\n') + '\n';
    importTrajectories(store, textSource('x_test.jsonl', text));
    let out = '';
    agentWorldBenchExporter.exportTo(store.iterateBundles(), (c) => (out += c));
    expect(out).toBe(text);
  });

  it('merges lines that carry only the prefix up to their turn with the whole-list lines of their trajectory', () => {
    const whole = first.map((l) => JSON.parse(l) as { prompt: string[]; response: string[]; turn_idx: number });
    // As the public eval reads them: prompt[0..turn_idx-1], response[0..turn_idx-2].
    const prefix = (l: (typeof whole)[number]) => JSON.stringify({ ...l, prompt: l.prompt.slice(0, l.turn_idx), response: l.response.slice(0, l.turn_idx - 1) });
    const lines = [prefix(whole[0]!), prefix(whole[1]!), first[2], prefix(whole[2]!)].join('\n');
    const report = importTrajectories(store, textSource('t_test.jsonl', lines));
    expect(report).toMatchObject({ imported: 1, problems: [], skipped: [] });
    const list = store.listTrajectories();
    expect(list.map((t) => t.steps)).toEqual([3]);
  });

  it('recognises a line repeating the last whole line without parsing it, but never hides a bad or different line behind it', () => {
    // Lines 2 and 3 repeat line 1 as written; line 4 repeats it with a character escaped
    // differently (the same values), line 5 is line 3 with an invalid escape in the turn it
    // evaluates, line 6 is line 1 with one observation changed, line 7 names another sample.
    const [l1, l2, l3] = first as [string, string, string];
    const escaped = l2.replace('"task":"terminal"', '"task":"termin\\u0061l"').replace('"x y"', '"x\\u0020y"');
    expect(escaped).not.toBe(l2);
    const badEscape = l3.replace('"current_prompt":"', '"current_prompt":"\\q');
    const changed = l1.replace('hello', 'hullo');
    const other = l1.replace('"id":"a"', '"id":"a2"');
    const report = importTrajectories(store, textSource('t_test.jsonl', [l1, l2, l3, escaped, badEscape, changed, other].join('\n')));
    expect(report.problems.map((p) => [p.line, p.reason.slice(0, 14)])).toEqual([[5, 'not valid JSON']]);
    // The changed line is another trajectory; the other sample's has the same content as line 1, so it is not imported twice.
    expect(report.imported).toBe(2);
    expect(store.listTrajectories().map((t) => t.title)).toEqual(['terminal · a', 'terminal · a']);
    const observations = store.listTrajectories().map((t) => store.getNodes(t.id)[2]!.observation);
    expect(observations).toEqual(['hello', 'hullo']);
  });

  it('merges prefix lines that come after the whole line of their trajectory, from a file', () => {
    const whole = first.map((l) => JSON.parse(l) as { prompt: string[]; response: string[]; turn_idx: number });
    const prefix = (l: (typeof whole)[number]) => JSON.stringify({ ...l, prompt: l.prompt.slice(0, l.turn_idx), response: l.response.slice(0, l.turn_idx - 1) });
    const other = prefix({ ...whole[1]!, prompt: ['## Turn 1\n\n**Action:**\npwd', '## Turn 2\n\n**Action:**\nls'] });
    const path = join(dir, 't_test.jsonl');
    writeFileSync(path, [first[2], second[0], prefix(whole[0]!), prefix(whole[2]!), other].join('\n') + '\n');
    const report = importTrajectories(store, fileSource(path), { head: fileHead(path) });
    // Sample a's prefixes are its whole line's; the one that disagrees with it comes in on its own.
    expect(report).toMatchObject({ imported: 3, problems: [] });
    expect(store.listTrajectories().map((t) => [t.title, t.steps])).toEqual([
      ['terminal · a', 3],
      ['mcp · b', 1],
      ['terminal · a', 1],
    ]);
  });

  it('merges prefix-only lines into one trajectory when no line carries the whole lists, and says which turn has no observation', () => {
    const whole = first.map((l) => JSON.parse(l) as { prompt: string[]; response: string[]; turn_idx: number });
    const prefixes = whole.map((l) => JSON.stringify({ ...l, prompt: l.prompt.slice(0, l.turn_idx), response: l.response.slice(0, l.turn_idx - 1) }));
    const report = importTrajectories(store, textSource('t_test.jsonl', [prefixes[2], prefixes[0], prefixes[1]].join('\n')));
    expect(report).toMatchObject({ imported: 1, problems: [] });
    expect(report.skipped).toEqual([
      { line: 1, what: 'turn 3 of sample a (an action without its observation)', reason: expect.stringMatching(/stops before the observation/) },
    ]);
    const [t] = store.listTrajectories();
    expect(store.getNodes(t!.id).slice(1).map((n) => [n.action, n.observation])).toEqual([
      ['ls', 'x y'],
      ['cat x', 'hello'],
    ]);
  });

  it('keeps the task and the screen of GUI prompts on the node, the first screen as the initial state, and exports them back', () => {
    const prompt = [
      '### Turn 1\n**Task Instruction:**\nOpen the settings\n\n**Current State:**\n[home screen]\n\n**Action:**\ntap(Settings)',
      '### Turn 2\n**Current State:**\n[settings list]\n\n**Action:**\ntap(Wi-Fi)',
    ];
    const response = ['**Environment Observation:**\n[settings list]', '**Environment Observation:**\n[wifi page]'];
    const lines = prompt.map((_, i) =>
      JSON.stringify({ task: 'android', id: 'g1', prompt, response, current_prompt: prompt[i], system_str: 'You simulate an Android phone.', turn_idx: i + 1, total_turns: 2 }),
    );
    const text = lines.join('\n') + '\n';
    importTrajectories(store, textSource('android_test.jsonl', text));
    const [t] = store.listTrajectories();
    const [root, ...steps] = store.getNodes(t!.id);
    expect(root!.observation).toBe('[home screen]');
    expect(steps.map((n) => n.provenance.gui)).toEqual([{ taskInstruction: 'Open the settings', currentState: '[home screen]' }, { currentState: '[settings list]' }]);
    expect(steps.map((n) => n.action)).toEqual(['tap(Settings)', 'tap(Wi-Fi)']);
    // Rebuilt from the node's parts, the prompt is the file's: no raw copy needed.
    expect(steps.every((n) => n.provenance.source?.rawAction === undefined)).toBe(true);
    let out = '';
    agentWorldBenchExporter.exportTo(store.iterateBundles(), (c) => (out += c));
    expect(out).toBe(text);
  });

  it('reads actions and observations out of the prompt layout', () => {
    expect(actionFromPrompt('## Turn 3\n\n**Action:**\nls -la\n')).toBe('ls -la');
    expect(actionFromPrompt('plain action')).toBe('plain action');
    expect(observationFromResponse('**Environment Observation:**\nok\n')).toBe('ok\n');
    expect(observationFromResponse('no heading')).toBe('no heading');
  });
});
