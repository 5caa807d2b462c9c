import { describe, expect, it } from 'vitest';
import { runImporter } from '../../testing/importer-fixtures';
import { importerFor } from '../registry';
import { preferenceImporter } from './import';

const pairs = (text: string, name = 'pairs.jsonl') => {
  const { bundles, problems } = runImporter(preferenceImporter, name, text);
  return { problems, read: bundles.map((b) => ({ steps: b.nodes.slice(1).map((n) => [n.parentId === b.nodes[0]!.id ? 'root' : 'deeper', n.action, n.observation, n.curation.tags.join(',')]) })) };
};

describe('preference data read as sibling observations', () => {
  it("LLaMA-Factory's ShareGPT ranking rows: the history, then the chosen and rejected answers as siblings tagged preferred and rejected", () => {
    const row = {
      conversations: [{ from: 'human', value: '### Turn 1\n**Action:**\nls' }, { from: 'gpt', value: '**Environment Observation:**\na.txt' }, { from: 'human', value: '### Turn 2\n**Action:**\ncat a.txt' }],
      chosen: { from: 'gpt', value: '**Environment Observation:**\nhello' },
      rejected: { from: 'gpt', value: '**Environment Observation:**\ncat: a.txt: No such file or directory' },
    };
    const text = JSON.stringify(row) + '\n';
    expect(importerFor('auto', 'dpo.jsonl', text).id).toBe('preference');
    const { read, problems } = pairs(text);
    expect(problems).toEqual([]);
    expect(read[0]!.steps).toEqual([
      ['root', 'ls', 'a.txt', ''],
      ['deeper', 'cat a.txt', 'hello', 'preferred'],
      ['deeper', 'cat a.txt', 'cat: a.txt: No such file or directory', 'rejected'],
    ]);
  });

  it("LLaMA-Factory's Alpaca ranking rows and TRL's rows (conversational and plain text), in a JSON array or one a line", () => {
    const alpaca = JSON.stringify([{ instruction: 'pwd', input: '', chosen: '/home/ada', rejected: '/root' }]);
    expect(importerFor('auto', 'dpo.json', alpaca).id).toBe('preference');
    expect(pairs(alpaca, 'dpo.json').read[0]!.steps.map((s) => s.slice(2))).toEqual([['/home/ada', 'preferred'], ['/root', 'rejected']]);
    const trl = [
      JSON.stringify({ prompt: [{ role: 'user', content: 'whoami' }], chosen: [{ role: 'assistant', content: 'ada' }], rejected: [{ role: 'assistant', content: 'root' }] }),
      JSON.stringify({ prompt: 'date', chosen: 'Mon', rejected: 'Tue' }),
    ].join('\n');
    expect(pairs(trl).read.map((r) => r.steps.map((s) => s.slice(1)))).toEqual([
      [['whoami', 'ada', 'preferred'], ['whoami', 'root', 'rejected']],
      [['date', 'Mon', 'preferred'], ['date', 'Tue', 'rejected']],
    ]);
  });

  it('a row whose history does not end with the user turn both answers reply to is a problem that says so; the others still import', () => {
    const text = [JSON.stringify({ prompt: [{ role: 'assistant', content: 'x' }], chosen: 'a', rejected: 'b' }), JSON.stringify({ prompt: 'ls', chosen: 'a', rejected: 'b' })].join('\n');
    const { read, problems } = pairs(text);
    expect(problems).toEqual([{ kind: 'problem', line: 1, reason: 'the history ends with the user turn both answers reply to; it does not' }]);
    expect(read).toHaveLength(1);
  });
});
