import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { cardFrontMatter } from './dataset-card';

/** The front matter as Hugging Face reads it: the YAML between the two `---` lines. */
function readFrontMatter(text: string): Record<string, unknown> {
  const m = /^---\n([\s\S]*?)\n---$/.exec(text);
  expect(m, 'front matter between --- lines').not.toBeNull();
  return parse(m![1]!) as Record<string, unknown>;
}

// One JSONL file per split, as the messages format writes them.
const jsonl = { dataFiles: (split: string) => [`${split}.jsonl`] };

describe('dataset card front matter', () => {
  it('reads back as the YAML Hugging Face expects, whatever the dataset is called', () => {
    const name = 'ops: "tricky" # not a comment\n- nor a list';
    const text = cardFrontMatter({ name, format: jsonl, exampleOptions: { builder: 'preference', per: 'step', reasoning: false }, splits: ['train', 'validation'] }, 12_345);
    expect(readFrontMatter(text)).toEqual({
      pretty_name: name,
      task_categories: ['text-generation'],
      tags: ['worldloom', 'world-model', 'environment-simulation', 'dpo'],
      size_categories: ['10K<n<100K'],
      configs: [
        {
          config_name: 'default',
          data_files: [
            { split: 'train', path: 'train.jsonl' },
            { split: 'validation', path: 'validation.jsonl' },
          ],
        },
      ],
    });
  });

  it('keeps glob data files literal (a bare * would be a YAML alias)', () => {
    const format = { dataFiles: (split: string) => [`data/${split}-*.parquet`] };
    const text = cardFrontMatter({ name: 'n', format, exampleOptions: { builder: 'agent', per: 'path', reasoning: true }, splits: ['train'] }, 10);
    expect(readFrontMatter(text)).toMatchObject({ tags: ['worldloom', 'world-model', 'agent', 'sft'], configs: [{ data_files: [{ split: 'train', path: 'data/train-*.parquet' }] }] });
  });
});
