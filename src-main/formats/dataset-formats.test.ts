// Every format: each file checked against its framework's documented layout, and read
// back into the very examples that were exported.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import type { DatasetExportInput, DatasetFormat } from '../common/contract/dataset';
import { DatasetExportInput as ExportInputSchema } from '../common/contract/dataset';
import { buildExamples } from '../dataset/builders';
import { resolveExampleOptions } from '../dataset/export-dataset';
import { Deduplicator } from '../dataset/hygiene/dedup';
import { Scrubber } from '../dataset/hygiene/scrub';
import { splitTrajectories } from '../dataset/hygiene/split';
import type { ExampleMessage, Split } from '../dataset/example';
import { bundleSource, fixtureBundles, manyBundles } from '../testing/dataset-fixtures';
import { exportAs } from '../testing/registered-export';
import { compileSelection, exampleEnds } from '../dataset/selection';
import {
  AgentWorldBenchLineSchema,
  CardConfigsSchema,
  DatasetInfoSchema,
  MessagesRowSchema,
  ParquetRowSchema,
  PreferenceRowSchema,
  PromptCompletionRowSchema,
  ShareGptRankingRowSchema,
  ShareGptRowSchema,
} from '../dataset/writing/framework-schemas';
import { datasetFormat } from './registry';

const bundles = [...fixtureBundles(), ...manyBundles(8)];
const source = bundleSource(bundles);

function options(format: DatasetFormat, extra: Partial<DatasetExportInput> = {}) {
  const out = join(mkdtempSync(join(tmpdir(), 'wl-dataset-')), 'export');
  return ExportInputSchema.parse({ out, format, split: 0.75, seed: 3, dedup: true, scrub: true, examples: { reasoning: true }, name: 'wl-test', ...extra });
}

/** What the export should hold, worked out independently of the writer: split → messages in order. */
function expected(opts: ReturnType<typeof options>): Record<Split, ExampleMessage[][]> {
  const exampleOptions = resolveExampleOptions(opts.format, opts.examples);
  const selection = compileSelection(opts.selection);
  const chosen = bundles.map((b) => ({ b, ends: exampleEnds(b, selection, exampleOptions.per) })).filter((x) => x.ends.length > 0);
  const splits = splitTrajectories(chosen.map((x) => x.b.trajectory.id), opts.split, opts.seed);
  const scrubber = new Scrubber();
  const dedup = new Deduplicator({ nearDuplicateThreshold: opts.nearDuplicateThreshold });
  const out: Record<Split, ExampleMessage[][]> = { train: [], validation: [] };
  for (const { b, ends } of chosen) {
    for (const s of buildExamples(b, ends, exampleOptions)) {
      const clean = scrubber.scrub(s);
      if (dedup.judge(clean) === 'unique') out[splits.get(b.trajectory.id)!].push(clean.messages);
    }
  }
  return out;
}

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as unknown);

/** The YAML `configs` block of a card, read back with just enough YAML for what the card writes. */
function cardConfigs(readme: string) {
  const yaml = /^---\n([\s\S]*?)\n---\n/.exec(readme)![1]!;
  const block = yaml.slice(yaml.indexOf('configs:'));
  const files = [...block.matchAll(/- split: "(\w+)"\n\s+path: "([^"]+)"/g)].map((m) => ({ split: m[1]!, path: m[2]! }));
  return CardConfigsSchema.parse([{ config_name: /config_name: "([^"]+)"/.exec(block)![1]!, data_files: files }]);
}

function globMatches(dir: string, pattern: string): string[] {
  const [folder, name] = pattern.includes('/') ? [pattern.slice(0, pattern.lastIndexOf('/')), pattern.slice(pattern.lastIndexOf('/') + 1)] : ['', pattern];
  const re = new RegExp(`^${name.replace(/[.]/g, '\\.').replace(/\*/g, '.*')}$`);
  const full = join(dir, folder);
  return existsSync(full) ? readdirSync(full).filter((f) => re.test(f)) : [];
}

async function exportAndCheckCard(opts: ReturnType<typeof options>, models = 'none') {
  const summary = await exportAs(source, opts);
  const readme = readFileSync(join(opts.out, 'README.md'), 'utf8');
  const configs = cardConfigs(readme);
  // Every split's data files exist, and the card names only splits that were written.
  for (const file of configs[0]!.data_files) expect(globMatches(opts.out, file.path).length).toBeGreaterThan(0);
  expect(configs[0]!.data_files.map((f) => f.split).sort()).toEqual(['train', 'validation']);
  for (const image of summary.files.filter((f) => f.endsWith('.svg'))) {
    expect(readme).toContain(`](${image})`);
    expect(readFileSync(join(opts.out, image), 'utf8')).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[\s\S]*<rect[\s\S]*<\/svg>\n$/);
  }
  expect(readme).toMatch(/\| terminal \| \d+ \| \d+ \|/);
  expect(readme).toContain('terminal.leaky-config');
  expect(readme).toContain(`- Models: ${models}.\n- Imported from: agentworldbench`);
  expect(readme).toMatch(/Estimated \(approximate/);
  expect(JSON.parse(readFileSync(join(opts.out, 'scrub-report.json'), 'utf8'))).toMatchObject({ counts: { apiKey: 1, email: 1, ip: 1 } });
  return summary;
}

const readBack = async (format: DatasetFormat, dir: string) => {
  const rows = await datasetFormat(format).read(dir);
  return { train: rows.filter((r) => r.split === 'train').map((r) => r.messages), validation: rows.filter((r) => r.split === 'validation').map((r) => r.messages) };
};

describe('dataset formats', () => {
  it('messages JSONL: TRL layout with reasoning_content, read back into the same examples', async () => {
    const opts = options('messages');
    const summary = await exportAndCheckCard(opts);
    expect(summary.removed).toEqual({ duplicates: 2, nearDuplicates: 1, overLength: 0 });
    for (const split of ['train', 'validation']) {
      const rows = lines(join(opts.out, `${split}.jsonl`)).map((row) => MessagesRowSchema.parse(row));
      // The reasoning field is on every assistant turn, so its type never varies between rows.
      expect(rows.every((r) => r.messages.every((m) => (m.role === 'assistant') === (m.reasoning_content !== undefined)))).toBe(true);
    }
    expect(await readBack('messages', opts.out)).toEqual(expected(opts));
  });

  it('messages JSONL: ms-swift layout with inline <think>, read back into the same examples', async () => {
    const opts = options('messages', { reasoningStyle: 'inline' });
    await exportAs(source, opts);
    const rows = [...lines(join(opts.out, 'train.jsonl')), ...lines(join(opts.out, 'validation.jsonl'))].map((row) => MessagesRowSchema.parse(row));
    expect(rows.some((r) => r.messages.some((m) => m.content.startsWith('<think>\nnotes.txt was listed'))));
    expect(rows.every((r) => r.messages.every((m) => m.reasoning_content === undefined))).toBe(true);
    expect(await readBack('messages', opts.out)).toEqual(expected(opts));
  });

  it('ShareGPT: LLaMA-Factory rows and dataset_info.json, read back into the same examples', async () => {
    const opts = options('sharegpt');
    await exportAndCheckCard(opts);
    const raw: unknown = JSON.parse(readFileSync(join(opts.out, 'dataset_info.json'), 'utf8'));
    DatasetInfoSchema.parse(raw);
    const info = raw;
    const entry = (file: string) => ({
      file_name: file,
      formatting: 'sharegpt',
      columns: { messages: 'conversations', system: 'system' },
      worldloom_loss: expect.stringMatching(/^Each example teaches one step: only its last assistant turn/),
      worldloom_training_args: { mask_history: true },
    });
    expect(info).toEqual({ 'wl-test_train': entry('train.jsonl'), 'wl-test_validation': entry('validation.jsonl') });
    for (const split of ['train', 'validation']) for (const row of lines(join(opts.out, `${split}.jsonl`))) ShareGptRowSchema.parse(row);
    expect(await readBack('sharegpt', opts.out)).toEqual(expected(opts));
  });

  it('Parquet: list<struct> messages and stable string columns under data/, read back into the same examples', async () => {
    const opts = options('parquet');
    await exportAndCheckCard(opts);
    const file = join(opts.out, 'data', 'train-00000-of-00001.parquet');
    const metadata = await parquetMetadataAsync(await asyncBufferFromFile(file));
    const schema = metadata.schema.map((e) => [e.name, e.repetition_type ?? null, e.converted_type ?? null]);
    expect(schema).toEqual([
      ['schema', null, null],
      ['messages', 'REQUIRED', 'LIST'],
      ['list', 'REPEATED', null],
      ['element', 'REQUIRED', null],
      ['role', 'REQUIRED', 'UTF8'],
      ['content', 'REQUIRED', 'UTF8'],
      ['reasoning_content', 'REQUIRED', 'UTF8'],
      ...['id', 'trajectory_id', 'title', 'domain', 'origin', 'perturbations', 'created_at'].map((c) => [c, 'REQUIRED', 'UTF8']),
    ]);
    const rows = await datasetFormat('parquet').read(opts.out);
    expect(rows.every((r) => typeof r.id === 'string')).toBe(true);
    expect(await readBack('parquet', opts.out)).toEqual(expected(opts));
    expect(ParquetRowSchema.shape.messages).toBeDefined();
  });

  it('AgentWorldBench: benchmark lines per domain, imported back into the same world-model paths', async () => {
    const opts = options('agentworldbench');
    // Whole paths (the format's default): the simulated sibling's path is no near-copy of another path.
    await exportAndCheckCard(opts, 'qwen-agentworld (1)');
    const files = ['train', 'validation'].flatMap((split) => readdirSync(join(opts.out, split)).map((f) => join(opts.out, split, f)));
    expect(files.every((f) => /(terminal|search)_test\.jsonl$/.test(f))).toBe(true);
    for (const f of files) for (const line of lines(f)) AgentWorldBenchLineSchema.parse(line);
    // The benchmark has no reasoning: the round trip gives the examples without it.
    // Files are per domain, so compare each split's examples in a fixed order.
    const strip = (groups: ExampleMessage[][]) => groups.map((ms) => JSON.stringify(ms.map(({ role, content }) => ({ role, content })))).sort();
    const want = expected(opts);
    const got = await readBack('agentworldbench', opts.out);
    expect({ train: strip(got.train), validation: strip(got.validation) }).toEqual({ train: strip(want.train), validation: strip(want.validation) });
  });

  it('refuses agent examples in AgentWorldBench, which holds world-model trajectories', async () => {
    await expect(exportAs(source, options('agentworldbench', { examples: { builder: 'agent' } }))).rejects.toThrow(/choose the world-model builder/);
  });
});

describe('dataset formats: prompt/completion, tool calls, preference pairs', () => {
  const rowsOf = (dir: string) => ['train', 'validation'].flatMap((split) => (existsSync(join(dir, `${split}.jsonl`)) ? lines(join(dir, `${split}.jsonl`)) : []));

  it('prompt/completion: the completion is the step alone, the prompt everything before it', async () => {
    const opts = options('prompt-completion');
    await exportAndCheckCard(opts);
    const rows = rowsOf(opts.out).map((row) => PromptCompletionRowSchema.parse(row));
    const want = expected(opts);
    const got = await datasetFormat('prompt-completion').read(opts.out);
    expect(got.map((r) => r.messages)).toEqual([...want.train, ...want.validation]);
    for (const row of rows) {
      expect(row.completion).toHaveLength(1);
      expect(row.completion[0]!.content).toMatch(/^\*\*Environment Observation:\*\*\n/);
      expect(row.prompt.at(-1)!.content).toMatch(/^### Turn \d+\n\*\*Action:\*\*\n/);
    }
    const card = readFileSync(join(opts.out, 'README.md'), 'utf8');
    expect(card).toContain("only the completion, the step's observation, carries the loss");
    expect(card).toContain('`SFTConfig(completion_only_loss=True)`');
    // History turns are counted apart from taught ones: every step example teaches one turn.
    expect(card).toMatch(new RegExp(`The files hold \\d+ assistant turns; ${rows.length} of them are taught \\(the prompt holds the rest`));
  });

  it('agent examples: tool calls and tool results in messages, prompt/completion and ShareGPT, read back', async () => {
    for (const format of ['messages', 'prompt-completion', 'sharegpt'] as const) {
      const opts = options(format, { examples: { builder: 'agent', reasoning: false } });
      await exportAs(source, opts);
      const want = expected(opts);
      const rows = await datasetFormat(format).read(opts.out);
      expect(rows.map((r) => r.messages)).toEqual([...want.train, ...want.validation]);
      expect(rows.every((r) => r.tools?.length)).toBe(true);
      const raw = rowsOf(opts.out);
      if (format === 'messages') {
        const row = MessagesRowSchema.parse(raw[0]);
        expect(row.messages.find((m) => m.role === 'assistant')!.tool_calls).toEqual([{ type: 'function', function: { name: expect.any(String), arguments: expect.any(String) } }]);
      } else if (format === 'prompt-completion') {
        for (const r of raw) expect(PromptCompletionRowSchema.parse(r).completion[0]!.tool_calls).toHaveLength(1);
      } else {
        const row = ShareGptRowSchema.parse(raw.find((r) => (r as { conversations: unknown[] }).conversations.length > 2));
        expect(row.conversations.map((t) => t.from)).toEqual(['human', ...row.conversations.slice(1).map((_, i) => (i % 2 === 0 ? 'function_call' : 'observation'))]);
        const info = JSON.parse(readFileSync(join(opts.out, 'dataset_info.json'), 'utf8')) as Record<string, { columns: Record<string, string> }>;
        expect(info['wl-test_train']!.columns).toEqual({ messages: 'conversations', system: 'system', tools: 'tools' });
      }
    }
  });

  it('preference pairs: TRL DPO rows and LLaMA-Factory ranking rows, with the pairing rule in the card', async () => {
    const opts = options('preference', { examples: { builder: 'preference', reasoning: true }, split: 1 });
    const summary = await exportAs(source, opts);
    expect(summary.examples.train).toBe(1);
    const [row] = lines(join(opts.out, 'train.jsonl')).map((r) => PreferenceRowSchema.parse(r));
    expect(row!.chosen[0]).toEqual({ role: 'assistant', content: '**Environment Observation:**\nremember the milk and the eggs and the bread for the weekend trip', reasoning_content: 'notes.txt was listed; a shopping note is plausible.' });
    expect(row!.rejected[0]!.content).toMatch(/weekend trip!$/);
    expect(row!.prompt.at(-1)!.content).toBe('### Turn 2\n**Action:**\ncat notes.txt');
    const card = readFileSync(join(opts.out, 'README.md'), 'utf8');
    expect(card).toContain('## How pairs are made');
    expect(card).toContain('the higher rating is chosen');
    const ranked = options('sharegpt', { examples: { builder: 'preference', reasoning: true }, split: 1 });
    await exportAs(source, ranked);
    const info = JSON.parse(readFileSync(join(ranked.out, 'dataset_info.json'), 'utf8')) as Record<string, unknown>;
    expect(info['wl-test_train']).toMatchObject({ formatting: 'sharegpt', ranking: true, columns: { messages: 'conversations', chosen: 'chosen', rejected: 'rejected', system: 'system' } });
    const [rankRow] = lines(join(ranked.out, 'train.jsonl')).map((r) => ShareGptRankingRowSchema.parse(r));
    expect(rankRow!.chosen.value).toMatch(/^<think>\nnotes.txt was listed/);
    expect(rankRow!.rejected.value).toMatch(/weekend trip!$/);
    const back = await datasetFormat('sharegpt').read(ranked.out);
    expect(back[0]!.rejected![0]!.content).toMatch(/weekend trip!$/);
  });
});
