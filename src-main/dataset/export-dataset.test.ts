import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { datasetApi, DatasetExportInput, type DatasetExportInput as ExportInput } from '../common/contract/dataset';
import { buildExamples } from './builders';
import { ExportCancelledError, previewDataset, resolveExampleOptions } from './export-dataset';
import { exportAs } from '../testing/registered-export';
import { approximateTokenCounter, exampleTokens, tokenizerFolderCounter } from './hygiene/token-length';
import { compileSelection, exampleEnds } from './selection';
import { bundleSource, fixtureBundles, manyBundles, treeBundle } from '../testing/dataset-fixtures';

const source = bundleSource([...fixtureBundles(), ...manyBundles(30)]);
const freshDir = () => mkdtempSync(join(tmpdir(), 'wl-export-'));
const opts = (out: string, extra: Partial<ExportInput> = {}) => DatasetExportInput.parse({ out, format: 'messages', ...extra });

describe('dataset export job', () => {
  it('previews a live count and the first examples, and reports a bad filter instead of failing', () => {
    const preview = previewDataset(source, { filter: 'domain = search', scope: { kind: 'all' } }, {}, 1);
    expect(preview).toMatchObject({ filterError: null, trajectories: 2, examples: 4 });
    expect(preview.first).toHaveLength(1);
    expect(preview.first[0]!.messages.at(-1)!.content).toBe('**Environment Observation:**\n1. Maine Coon\n2. Siamese');
    expect(previewDataset(source, { filter: 'domain = ', scope: { kind: 'all' } }, {}, 3)).toMatchObject({
      filterError: { column: 10 },
      examples: 0,
    });
  });

  it('reports progress up to the total and summarizes what it wrote', async () => {
    const out = join(freshDir(), 'ds');
    const seen: { done: number; total: number | null }[] = [];
    const summary = await exportAs(source, opts(out, { split: 0.8, seed: 5 }), { onProgress: (p) => seen.push(p) });
    expect(summary.examples.train + summary.examples.validation).toBe(68);
    expect(summary.trajectories).toEqual({ train: 26, validation: 7 });
    expect(seen.at(-1)).toMatchObject({ done: 68, total: 68 });
    expect(summary.files).toEqual(['train.jsonl', 'validation.jsonl', 'README.md', 'images/token-lengths-train.svg', 'images/token-lengths-validation.svg']);
    expect(summary.tokenizer.exact).toBe(false);
    // Without de-duplication the simulated resample is kept, and its model shows in the provenance.
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain('- Models: qwen-agentworld (1).');
  });

  it('says what the examples teach: real, edited, simulated and reviewed or not; the filter `not simulated or reviewed` leaves out the unreviewed', async () => {
    const bundle = treeBundle('mix', 'terminal', 'A shell.', '$ ', [
      { action: 'ls', observation: 'a.txt' },
      { action: 'ls', observation: 'a.txt b.txt', origin: 'simulated', modelId: 'm', seed: 1 },
      { action: 'ls', observation: 'b.txt', origin: 'simulated', modelId: 'm', seed: 2, rating: 4 },
      { action: 'ls', observation: 'c.txt', origin: 'perturbed', modelId: 'm', seed: 3, perturbation: 'timeout' },
      { action: 'pwd', observation: '/root', origin: 'edited' },
    ]);
    // The preview says it before anything is written, with the same counts the export then reports.
    expect(previewDataset(bundleSource([bundle]), { filter: '', scope: { kind: 'all' } }, {}, 0).composition).toEqual({ real: 1, edited: 1, simulatedReviewed: 1, simulatedUnreviewed: 2 });
    const summary = await exportAs(bundleSource([bundle]), opts(join(freshDir(), 'ds')));
    expect(summary.composition).toEqual({ real: 1, edited: 1, simulatedReviewed: 1, simulatedUnreviewed: 2 });
    // The defaults, the same for every door: all in train, duplicates kept.
    expect([summary.split, summary.dedup, summary.examples]).toEqual([1, false, { train: 5, validation: 0 }]);
    const reviewedOnly = await exportAs(bundleSource([bundle]), opts(join(freshDir(), 'ds'), { selection: { filter: 'not simulated or reviewed' } }));
    expect(reviewedOnly.composition).toEqual({ real: 1, edited: 1, simulatedReviewed: 1, simulatedUnreviewed: 0 });
  });

  it('leaves out examples over the length limit and counts them', async () => {
    const summary = await exportAs(source, opts(join(freshDir(), 'ds'), { maxTokens: 30 }));
    expect(summary.removed.overLength).toBeGreaterThan(0);
    expect(summary.examples.train).toBe(68 - summary.removed.overLength);
  });

  it('leaves out steps that ran out of tokens, and what follows them, unless asked to include them', async () => {
    const bundle = treeBundle('cut', 'terminal', 'A shell.', '$ ', [
      { action: 'ls', observation: 'a.txt', children: [{ action: 'cat a.txt', observation: 'the reasoning so far', children: [{ action: 'pwd', observation: '/root' }] }] },
      { action: 'whoami', observation: 'root' },
    ]);
    const cut = bundle.nodes.find((n) => n.action === 'cat a.txt')!;
    cut.provenance = { ...cut.provenance, finishReason: 'length' };
    const only = bundleSource([bundle]);
    const skipped = await exportAs(only, opts(join(freshDir(), 'ds')));
    expect(skipped.examples.train).toBe(2);
    const lastTurns = (dir: string) =>
      readFileSync(join(dir, 'train.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { messages: { content: string }[] }).messages.at(-1)!.content);
    expect(lastTurns(skipped.out)).toEqual(['**Environment Observation:**\na.txt', '**Environment Observation:**\nroot']);
    const kept = await exportAs(only, opts(join(freshDir(), 'ds'), { includeCutOff: true }));
    expect(kept.examples.train).toBe(4);
    expect(previewDataset(only, { filter: '', scope: { kind: 'all' } }, {}, 10).examples).toBe(2);
  });

  it('cancels without leaving a file behind', async () => {
    const dir = freshDir();
    const controller = new AbortController();
    controller.abort();
    await expect(exportAs(source, opts(join(dir, 'ds')), { signal: controller.signal, onProgress: () => undefined })).rejects.toBeInstanceOf(ExportCancelledError);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('replaces only an earlier export, and only when asked', async () => {
    const dir = freshDir();
    const foreign = join(dir, 'photos');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'cat.jpg'), 'x');
    await expect(exportAs(source, opts(foreign, { overwrite: true }))).rejects.toThrow(/not empty and is not an earlier Worldloom export/);
    expect(existsSync(join(foreign, 'cat.jpg'))).toBe(true);
    const out = join(dir, 'ds');
    await exportAs(source, opts(out));
    await expect(exportAs(source, opts(out))).rejects.toThrow(/holds an earlier export/);
    const again = await exportAs(source, opts(out, { overwrite: true, selection: { filter: 'domain = search' } }));
    expect(again.examples.train).toBe(4);
    expect(readdirSync(dir).sort()).toEqual(['ds', 'photos']);
  });

  it('says so when the selection is empty', async () => {
    await expect(exportAs(source, opts(join(freshDir(), 'ds'), { selection: { filter: 'domain = web' } }))).rejects.toThrow(/holds no examples/);
  });
});

describe('dataset export: defaults, warnings and token counts', () => {
  const fixtureTokenizer = join(__dirname, '../engine/onnx/fixtures/qwen35/hf');

  it('exports whole paths to AgentWorldBench when per is left out, as every door leaves it', async () => {
    const four = bundleSource(manyBundles(4));
    // The CLI passes every option it was not given as undefined; the schema must not fill per with "step".
    const parsed = DatasetExportInput.parse({ out: join(freshDir(), 'awb'), format: 'agentworldbench', examples: { builder: undefined, per: undefined, reasoning: undefined } });
    const summary = await exportAs(four, parsed);
    expect(summary.examples.train).toBe(4);
    const lines = readFileSync(join(summary.out, 'train', 'terminal_test.jsonl'), 'utf8').trim().split('\n');
    // One line per turn of each two-step path: 4 paths × 2 turns, no prefix written as a path of its own.
    expect(lines).toHaveLength(8);
    expect(new Set(lines.map((l) => (JSON.parse(l) as { id: string }).id)).size).toBe(4);
  });

  it('refuses the options under their old name `samples`, naming `examples`, instead of dropping them', () => {
    const old = DatasetExportInput.safeParse({ out: join(freshDir(), 'old'), format: 'messages', samples: { builder: 'agent' } });
    expect(old.success).toBe(false);
    expect(old.error!.issues[0]).toMatchObject({ path: ['samples'], message: expect.stringMatching(/as `examples`/) });
    expect(datasetApi['dataset.preview'].input.safeParse({ selection: {}, samples: {} }).success).toBe(false);
    expect(DatasetExportInput.parse({ out: 'x', format: 'messages', examples: { builder: 'agent' } }).examples).toEqual({ builder: 'agent' });
  });

  it('warns when a split comes out empty, in the summary and the card', async () => {
    const one = bundleSource(manyBundles(1));
    const summary = await exportAs(one, opts(join(freshDir(), 'ds'), { split: 0.8 }));
    expect(summary.examples).toEqual({ train: 2, validation: 0 });
    expect(summary.warnings).toEqual([expect.stringMatching(/^The validation split is empty: .* from 1 trajectory, which cannot be split/)]);
    expect(readFileSync(join(summary.out, 'README.md'), 'utf8')).toContain('> **Warning:** The validation split is empty');
    const whole = await exportAs(one, opts(join(freshDir(), 'ds')));
    expect(whole.warnings).toEqual([]);
  });

  it('counts tokens exactly with a tokenizer folder, for the card and the length limit', async () => {
    const counter = tokenizerFolderCounter(fixtureTokenizer);
    const only = bundleSource(manyBundles(3));
    const summary = await exportAs(only, opts(join(freshDir(), 'ds')), { tokenCounter: counter });
    expect(summary.tokenizer).toEqual({ label: `the tokenizer in ${fixtureTokenizer}`, exact: true });
    const card = readFileSync(join(summary.out, 'README.md'), 'utf8');
    expect(card).toContain(`Counted exactly with the tokenizer in ${fixtureTokenizer}`);
    // The limit cuts at the exact count: the longest example's own token count passes, one less does not.
    const [bundle] = manyBundles(3);
    const examples = buildExamples(bundle!, exampleEnds(bundle!, compileSelection({ filter: '', scope: { kind: 'all' } }), 'step'), resolveExampleOptions('messages', {}));
    const longest = Math.max(...(examples.map((s) => exampleTokens(counter, s)) as number[]));
    expect(longest).not.toBe(exampleTokens(approximateTokenCounter, examples[1]!));
    const one = bundleSource([bundle!]);
    expect((await exportAs(one, opts(join(freshDir(), 'ds'), { maxTokens: longest }), { tokenCounter: counter })).removed.overLength).toBe(0);
    expect((await exportAs(one, opts(join(freshDir(), 'ds'), { maxTokens: longest - 1 }), { tokenCounter: counter })).removed.overLength).toBeGreaterThan(0);
    expect(() => tokenizerFolderCounter(freshDir())).toThrow(/holds no tokenizer\.json\. Name a model folder/);
  });

  it('refuses formats that cannot hold the examples, and says when there are no pairs', async () => {
    await expect(exportAs(source, opts(join(freshDir(), 'ds'), { format: 'prompt-completion', examples: { per: 'path' } }))).rejects.toThrow(/one turn per example.*Export one example per step/);
    await expect(exportAs(source, opts(join(freshDir(), 'ds'), { format: 'preference' }))).rejects.toThrow(/choose the preference builder/);
    await expect(exportAs(source, opts(join(freshDir(), 'ds'), { format: 'messages', examples: { builder: 'preference' } }))).rejects.toThrow(/export them as preference/);
    await expect(exportAs(bundleSource(manyBundles(3)), opts(join(freshDir(), 'ds'), { format: 'preference', examples: { builder: 'preference' } }))).rejects.toThrow(
      /no preference pairs: rate two samples of the same action differently, or star one/,
    );
  });
});
