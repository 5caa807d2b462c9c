import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatasetExportInput, type DatasetExportInput as ExportInput } from '../common/contract/dataset';
import { ExportCancelledError, exportDataset, previewDataset } from './export-dataset';
import { bundleSource, fixtureBundles, manyBundles, treeBundle } from '../testing/dataset-fixtures';

const source = bundleSource([...fixtureBundles(), ...manyBundles(30)]);
const freshDir = () => mkdtempSync(join(tmpdir(), 'wl-export-'));
const opts = (out: string, extra: Partial<ExportInput> = {}) => DatasetExportInput.parse({ out, format: 'messages', ...extra });

describe('dataset export job', () => {
  it('previews a live count and the first samples, and reports a bad filter instead of failing', () => {
    const preview = previewDataset(source, { filter: 'domain = search', scope: { kind: 'all' } }, {}, 1);
    expect(preview).toMatchObject({ filterError: null, trajectories: 2, samples: 4 });
    expect(preview.first).toHaveLength(1);
    expect(preview.first[0]!.messages.at(-1)!.content).toBe('**Environment Observation:**\n1. Maine Coon\n2. Siamese');
    expect(previewDataset(source, { filter: 'domain = ', scope: { kind: 'all' } }, {}, 3)).toMatchObject({
      filterError: { column: 10 },
      samples: 0,
    });
  });

  it('reports progress up to the total and summarizes what it wrote', async () => {
    const out = join(freshDir(), 'ds');
    const seen: { done: number; total: number | null }[] = [];
    const summary = await exportDataset(source, opts(out, { split: 0.8, seed: 5 }), { onProgress: (p) => seen.push(p) });
    expect(summary.samples.train + summary.samples.validation).toBe(68);
    expect(summary.trajectories).toEqual({ train: 26, validation: 7 });
    expect(seen.at(-1)).toMatchObject({ done: 68, total: 68 });
    expect(summary.files).toEqual(['train.jsonl', 'validation.jsonl', 'README.md', 'images/token-lengths-train.svg', 'images/token-lengths-validation.svg']);
    expect(summary.tokenizer.exact).toBe(false);
    // Without de-duplication the simulated resample is kept, and its model shows in the provenance.
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain('- Models: qwen-agentworld (1).');
  });

  it('leaves out samples over the length limit and counts them', async () => {
    const summary = await exportDataset(source, opts(join(freshDir(), 'ds'), { maxTokens: 30 }));
    expect(summary.removed.overLength).toBeGreaterThan(0);
    expect(summary.samples.train).toBe(68 - summary.removed.overLength);
  });

  it('leaves out steps that ran out of tokens, and what follows them, unless asked to include them', async () => {
    const bundle = treeBundle('cut', 'terminal', 'A shell.', '$ ', [
      { action: 'ls', observation: 'a.txt', children: [{ action: 'cat a.txt', observation: 'the reasoning so far', children: [{ action: 'pwd', observation: '/root' }] }] },
      { action: 'whoami', observation: 'root' },
    ]);
    const cut = bundle.nodes.find((n) => n.action === 'cat a.txt')!;
    cut.provenance = { ...cut.provenance, finishReason: 'length' };
    const only = bundleSource([bundle]);
    const skipped = await exportDataset(only, opts(join(freshDir(), 'ds')));
    expect(skipped.samples.train).toBe(2);
    const lastTurns = (dir: string) =>
      readFileSync(join(dir, 'train.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { messages: { content: string }[] }).messages.at(-1)!.content);
    expect(lastTurns(skipped.out)).toEqual(['**Environment Observation:**\na.txt', '**Environment Observation:**\nroot']);
    const kept = await exportDataset(only, opts(join(freshDir(), 'ds'), { includeCutOff: true }));
    expect(kept.samples.train).toBe(4);
    expect(previewDataset(only, { filter: '', scope: { kind: 'all' } }, {}, 10).samples).toBe(2);
  });

  it('cancels without leaving a file behind', async () => {
    const dir = freshDir();
    const controller = new AbortController();
    controller.abort();
    await expect(exportDataset(source, opts(join(dir, 'ds')), { signal: controller.signal, onProgress: () => undefined })).rejects.toBeInstanceOf(ExportCancelledError);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('replaces only an earlier export, and only when asked', async () => {
    const dir = freshDir();
    const foreign = join(dir, 'photos');
    mkdirSync(foreign);
    writeFileSync(join(foreign, 'cat.jpg'), 'x');
    await expect(exportDataset(source, opts(foreign, { overwrite: true }))).rejects.toThrow(/not empty and is not an earlier Worldloom export/);
    expect(existsSync(join(foreign, 'cat.jpg'))).toBe(true);
    const out = join(dir, 'ds');
    await exportDataset(source, opts(out));
    await expect(exportDataset(source, opts(out))).rejects.toThrow(/holds an earlier export/);
    const again = await exportDataset(source, opts(out, { overwrite: true, selection: { filter: 'domain = search' } }));
    expect(again.samples.train).toBe(4);
    expect(readdirSync(dir).sort()).toEqual(['ds', 'photos']);
  });

  it('says so when the selection is empty', async () => {
    await expect(exportDataset(source, opts(join(freshDir(), 'ds'), { selection: { filter: 'domain = web' } }))).rejects.toThrow(/holds no samples/);
  });
});
