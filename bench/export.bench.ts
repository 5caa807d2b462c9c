// Export of 1,000,000 generated examples to messages JSONL through the export pipeline
// (token counting and card statistics included), against a plain JSON.stringify + write
// of the same records in the same run. Goal: ≤ 2×. The prompt/completion and preference
// (DPO) exports of the same examples beside it, against the same plain write. Parquet
// throughput on 100,000 of the same examples (pure-JS encoding and compression is the cost).
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { approximateTokenCounter } from '../src-main/dataset/hygiene/token-length';
import { datasetFormat } from '../src-main/formats/registry';
import { LineFile } from '../src-main/dataset/writing/line-file';
import { ExamplePipeline } from '../src-main/dataset/pipeline';
import type { DatasetExample, Split } from '../src-main/dataset/example';
import type { WriteContext } from '../src-main/dataset/writing/dataset-format';
import type { BenchSuite, Figure } from './bench';

const EXAMPLES = 1_000_000;
const PARQUET_EXAMPLES = 100_000;
const WARM_UP = 100_000;

/** Examples built from a pool of distinct conversations, so memory stays small whatever the count. */
function* generatedExamples(count: number): Iterable<[DatasetExample, Split]> {
  const pool = Array.from({ length: 997 }, (_, t) => [
    { role: 'system' as const, content: `You simulate a Linux terminal on host box-${t % 97}. Reply with exactly what bash prints.` },
    { role: 'user' as const, content: `## Turn 1\n\n**Action:**\ncat /srv/data/file-${t}.txt | grep -n needle` },
    { role: 'assistant' as const, content: `**Environment Observation:**\n1:needle found in record ${t * 31}\n${'x'.repeat(40 + (t % 60))}` },
  ]);
  for (let i = 0; i < count; i++) {
    const example: DatasetExample = {
      id: `s${i}`,
      trajectoryId: `t${i >> 2}`,
      title: 'bench',
      domain: 'terminal',
      kind: 'step',
      builder: 'world-model',
      messages: pool[i % pool.length]!,
      completionFrom: 2,
      origin: 'simulated',
      perturbations: [],
      models: ['bench-model'],
      seeds: [i & 1023],
      sources: [],
      createdAt: '2025-06-01T00:00:00.000Z',
    };
    yield [example, i % 10 === 0 ? 'validation' : 'train'];
  }
}

async function timeAsync(fn: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const noHygiene = { dedup: false, nearDuplicateThreshold: 0.85, scrub: false, maxTokens: null };
const worldModelSteps = { builder: 'world-model', per: 'step', reasoning: false } as const;
const context = (exampleOptions: WriteContext['exampleOptions'] = worldModelSteps): WriteContext => ({ name: 'bench', reasoning: false, reasoningStyle: 'field', exampleOptions });

/** Each example as a preference pair: the same prompt, a rejected observation beside the chosen one. */
function* preferenceExamples(count: number): Iterable<[DatasetExample, Split]> {
  for (const [s, split] of generatedExamples(count)) {
    const chosen = s.messages[2]!;
    yield [{ ...s, builder: 'preference', rejected: { id: `r${s.id}`, messages: [{ role: 'assistant', content: chosen.content.replace('found', 'missing') }] } }, split];
  }
}

async function exportThrough(format: string, dir: string, examples: Iterable<[DatasetExample, Split]>, exampleOptions?: WriteContext['exampleOptions']): Promise<number> {
  mkdirSync(dir, { recursive: true });
  return timeAsync(async () => {
    const pipeline = new ExamplePipeline(datasetFormat(format), dir, context(exampleOptions), noHygiene, approximateTokenCounter);
    for (const [s, split] of examples) {
      const added = pipeline.add(s, split);
      if (typeof added !== 'string') await added;
    }
    await pipeline.finish();
  });
}

export const exportSuite: BenchSuite = {
  name: 'export',
  async run(): Promise<Figure[]> {
    const dir = mkdtempSync(join(tmpdir(), 'wl-bench-export-'));
    try {
      // Each form against a plain JSON.stringify + write of the same records in that form, each
      // run's files removed before the next so every run meets the disk in the same state.
      const plainWrite = (folder: string, examples: Iterable<[DatasetExample, Split]>, record: (s: DatasetExample) => unknown) =>
        timeAsync(async () => {
          mkdirSync(folder, { recursive: true });
          const files = { train: new LineFile(join(folder, 'train.jsonl')), validation: new LineFile(join(folder, 'validation.jsonl')) };
          for (const [s, split] of examples) {
            const pending = files[split].write(JSON.stringify(record(s)) + '\n');
            if (pending) await pending;
          }
          await files.train.close();
          await files.validation.close();
        });
      // Two alternating rounds, the faster of each: the machine is shared, and one busy moment
      // must not land on one side of a ratio only.
      const pair = async (name: string, plainRun: () => Promise<number>, exportRun: (folder: string) => Promise<number>, rounds = 2): Promise<[number, number, number]> => {
        let plainMs = Infinity;
        let exportMs = Infinity;
        let bytes = 0;
        for (let round = 0; round < rounds; round++) {
          plainMs = Math.min(plainMs, await plainRun());
          rmSync(join(dir, `${name}-plain`), { recursive: true, force: true });
          exportMs = Math.min(exportMs, await exportRun(join(dir, name)));
          bytes = statSync(join(dir, name, 'train.jsonl')).size + statSync(join(dir, name, 'validation.jsonl')).size;
          rmSync(join(dir, name), { recursive: true, force: true });
        }
        return [plainMs, exportMs, bytes];
      };
      // Warm both paths first: the first timed pair must not pay the JIT's start for the export alone.
      await pair(
        'warm',
        () => plainWrite(join(dir, 'warm-plain'), generatedExamples(WARM_UP), (s) => ({ messages: s.messages })),
        (folder) => exportThrough('messages', folder, generatedExamples(WARM_UP)),
        1,
      );
      const [plain, exported, jsonlBytes] = await pair(
        'messages',
        () => plainWrite(join(dir, 'messages-plain'), generatedExamples(EXAMPLES), (s) => ({ messages: s.messages })),
        (folder) => exportThrough('messages', folder, generatedExamples(EXAMPLES)),
      );
      const [plainPc, promptCompletion] = await pair(
        'pc',
        () => plainWrite(join(dir, 'pc-plain'), generatedExamples(EXAMPLES), (s) => ({ prompt: s.messages.slice(0, 2), completion: s.messages.slice(2) })),
        (folder) => exportThrough('prompt-completion', folder, generatedExamples(EXAMPLES)),
      );
      const [plainPref, preference] = await pair(
        'pref',
        () => plainWrite(join(dir, 'pref-plain'), preferenceExamples(EXAMPLES), (s) => ({ prompt: s.messages.slice(0, 2), chosen: s.messages.slice(2), rejected: s.rejected!.messages })),
        (folder) => exportThrough('preference', folder, preferenceExamples(EXAMPLES), { builder: 'preference', per: 'step', reasoning: false }),
      );
      const parquetDir = join(dir, 'parquet');
      const parquet = await exportThrough('parquet', parquetDir, generatedExamples(PARQUET_EXAMPLES));
      const parquetBytes = statSync(join(parquetDir, 'data', 'train-00000-of-00001.parquet')).size + statSync(join(parquetDir, 'data', 'validation-00000-of-00001.parquet')).size;
      const jsonlRate = EXAMPLES / (exported / 1000);
      const parquetRate = PARQUET_EXAMPLES / (parquet / 1000);
      return [
        { name: 'JSON.stringify + write 1M records', value: plain, unit: 'ms' },
        {
          name: 'export 1M examples to messages JSONL',
          value: exported,
          unit: 'ms',
          ratio: exported / plain,
          goal: 2,
          note: `ratio to JSON.stringify + write of the same records; ${(jsonlBytes / 1e6).toFixed(0)} MB written; includes token estimate and card statistics`,
        },
        {
          name: 'export 1M examples to prompt/completion JSONL',
          value: promptCompletion,
          unit: 'ms',
          ratio: promptCompletion / plainPc,
          goal: 2,
          note: 'ratio to JSON.stringify + write of the same prompt/completion records; includes token estimate and card statistics',
        },
        {
          name: 'export 1M preference pairs to DPO JSONL',
          value: preference,
          unit: 'ms',
          ratio: preference / plainPref,
          goal: 2,
          note: 'ratio to JSON.stringify + write of the same prompt/chosen/rejected records; includes token estimate (both answers) and card statistics',
        },
        {
          name: 'export 100k examples to Parquet',
          value: parquetRate,
          unit: 'examples/s',
          ratio: parquetRate / jsonlRate,
          higherIsBetter: true,
          note: `ratio to the messages JSONL rate in this run; ${(parquetBytes / 1e6).toFixed(1)} MB written (snappy)`,
        },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
