import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MessagesRowSchema } from '../../dataset/writing/framework-schemas';
import { generatedAwb } from '../../testing/awb-fixtures';
import { CLI_BIN } from '../../testing/cli-bin';

const bin = CLI_BIN;
const run = (...args: string[]) => execFileSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

describe('worldloom export (datasets)', { timeout: 240_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'wl-cli-dataset-'));
  const file = join(dir, 'terminal_test.jsonl');
  writeFileSync(file, generatedAwb(20, 3).join('\n') + '\n');
  const ws = join(dir, 'w.worldloom');
  run('import', file, '--workspace', ws);

  it('exports a filtered, split, de-duplicated and scrubbed messages dataset with a card', () => {
    const out = join(dir, 'messages');
    const summary = JSON.parse(run('export', '--workspace', ws, '--format', 'messages', '--out', out, '--filter', 'depth <= 2', '--split', '0.8', '--seed', '1', '--dedup', '--scrub'));
    expect(summary).toMatchObject({ format: 'messages', examples: { train: 32, validation: 8 }, trajectories: { train: 16, validation: 4 } });
    const rows = readFileSync(join(out, 'train.jsonl'), 'utf8').trim().split('\n').map((l) => MessagesRowSchema.parse(JSON.parse(l)));
    expect(rows).toHaveLength(32);
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain('filter `depth <= 2`');
  });

  it('exports per path to Parquet with the agent builder', () => {
    const out = join(dir, 'parquet');
    const summary = JSON.parse(run('export', '-w', ws, '-f', 'parquet', '-o', out, '--builder', 'agent', '--per', 'path'));
    expect(summary.examples).toEqual({ train: 20, validation: 0 });
    expect(summary.files).toContain('data/train-00000-of-00001.parquet');
  });

  it('says where a filter is wrong, and what a bad option should be', () => {
    const bad = spawnSync(process.execPath, [bin, 'export', '-w', ws, '-f', 'sharegpt', '-o', join(dir, 'x'), '--filter', 'ratin > 3'], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/--filter: Unknown field "ratin"; did you mean "rating"\?.*\(at column 1\)/);
    const split = spawnSync(process.execPath, [bin, 'export', '-w', ws, '-f', 'messages', '-o', join(dir, 'y'), '--split', '2'], { encoding: 'utf8' });
    expect(split.status).toBe(1);
    expect(split.stderr).toMatch(/--split <fraction>' argument '2' is invalid\. expected a number from 0\.01 to 1/);
  });

  it('refuses dataset options on an export that writes one file, saying to give a folder', () => {
    const r = spawnSync(process.execPath, [bin, 'export', '-w', ws, '-f', 'agentworldbench', '-o', join(dir, 'one_test.jsonl'), '--filter', 'rating >= 4'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/--filter: agentworldbench to .*one_test\.jsonl writes every trajectory to one file; .*Give --out a folder/);
    const unknown = spawnSync(process.execPath, [bin, 'export', '-w', ws, '-f', 'csv', '-o', join(dir, 'z')], { encoding: 'utf8' });
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/messages, prompt-completion, preference, sharegpt, parquet, agentworldbench, jsonl/);
  });

  it('exports AgentWorldBench dataset folders as whole paths: what goes out as 20 trajectories comes back as 20', () => {
    const out = join(dir, 'awb-folder');
    const summary = JSON.parse(run('export', '-w', ws, '-f', 'agentworldbench', '-o', out));
    expect(summary.examples).toEqual({ train: 20, validation: 0 });
    const again = join(dir, 'again.worldloom');
    const imported = JSON.parse(run('import', join(out, 'train', 'terminal_test.jsonl'), '--workspace', again));
    expect(imported.imported).toBe(20);
  });

  it('exports prompt/completion with exact token counts from a tokenizer folder, and warns of an empty split', () => {
    const out = join(dir, 'pc');
    const tokenizer = fileURLToPath(new URL('../../engine/onnx/fixtures/qwen35/hf', import.meta.url));
    const one = join(dir, 'one.worldloom');
    const single = join(dir, 'single_test.jsonl');
    writeFileSync(single, generatedAwb(1, 3).join('\n') + '\n');
    run('import', single, '--workspace', one);
    const r = spawnSync(process.execPath, [bin, 'export', '-w', one, '-f', 'prompt-completion', '-o', out, '--split', '0.8', '--tokenizer', tokenizer], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.tokenizer).toEqual({ label: `the tokenizer in ${tokenizer}`, exact: true });
    expect(r.stderr).toMatch(/warning: The validation split is empty: .*1 trajectory/);
    expect(readFileSync(join(out, 'README.md'), 'utf8')).toContain('Counted exactly with');
  });

  it('starts with what went out, and its refusals name the flags that fix them', () => {
    const out = join(dir, 'summary');
    const first = spawnSync(process.execPath, [bin, 'export', '-w', ws, '-f', 'messages', '-o', out, '--filter', 'depth <= 1'], { encoding: 'utf8' });
    expect(first.status).toBe(0);
    // stderr begins with the summary; stdout stays one JSON object. Defaults: all in train, duplicates kept (as in the export dialog).
    expect(first.stderr.split('\n')[0]).toBe('20 examples: 20 real; all in train (no validation split); duplicates kept.');
    expect(JSON.parse(first.stdout)).toMatchObject({ examples: { train: 20, validation: 0 }, composition: { real: 20 }, split: 1, dedup: false });
    const again = spawnSync(process.execPath, [bin, 'export', '-w', ws, '-f', 'messages', '-o', out], { encoding: 'utf8' });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`${out} holds an earlier export. Choose another --out, or pass --overwrite to replace it.`);
    const pairs = spawnSync(process.execPath, [bin, 'export', '-w', ws, '-f', 'preference', '-o', join(dir, 'pairs')], { encoding: 'utf8' });
    expect(pairs.status).toBe(1);
    expect(pairs.stderr).toMatch(/--format preference writes chosen\/rejected pairs: add --builder preference/);
  });

  it('keeps the whole-workspace AgentWorldBench file export byte for byte', () => {
    const awb = join(dir, 'back_test.jsonl');
    run('export', '--workspace', ws, '--format', 'agentworldbench', '--out', awb);
    expect(readFileSync(awb, 'utf8')).toBe(readFileSync(file, 'utf8'));
  });
});
