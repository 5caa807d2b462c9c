// `npm run model:parity -- --hf HF_DIR [--engine onnx|gguf] [--onnx DIR | --gguf FILE] [--precision fp32|fp16|int4] [--layout tokens|embeds] [--prompt-ids FILE] [--tokens N] [--json]`
// Token-for-token parity of Worldloom's in-process engines with transformers on a Qwen3.5-MoE
// checkpoint: converts it (unless --onnx or --gguf names a converted model; --engine gguf writes
// an f32 GGUF), lets transformers decode greedily (reference.py), decodes the same prompt ids with
// OnnxEngine or GgufEngine (llama.cpp on the CPU, F32 key/value cache), and prints
// {"cases":[{"promptIds":[…],"reference":[…],"engine":[…],"identical":true}]}.
// Exit status 1 when a case differs, 2 when it cannot run.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { OnnxEngine } from '../../src-main/engine/onnx/onnx-engine';
import { readModelFolder } from '../../src-main/engine/onnx/genai-config';
import { GgufEngine } from '../../src-main/engine/gguf/gguf-engine';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PYTHON = join(ROOT, 'native', '.venv', 'bin', 'python');

interface Case {
  promptIds: number[];
  reference: number[];
  engine: number[];
  identical: boolean;
}

class ParityError extends Error {}

/** Runs `python -m qwen35.<module>` with native/.venv's interpreter (the package `npm run python:setup` installs). */
function python(module: string, args: string[], capture: boolean): string {
  const script = `qwen35.${module}`;
  const result = spawnSync(PYTHON, ['-m', script, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'],
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error) throw new ParityError(`${script} could not start (${result.error.message}).`);
  if (result.status !== 0) throw new ParityError(`${script} failed with exit code ${result.status}; see its message above.`);
  return result.stdout ?? '';
}

function referenceCases(text: string): { promptIds: number[]; reference: number[] }[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ParityError(`reference.py printed no JSON: ${text.slice(0, 200)}`);
  }
  const cases = (json as { cases?: unknown }).cases;
  const ids = (value: unknown): value is number[] => Array.isArray(value) && value.every((id) => Number.isInteger(id));
  if (!Array.isArray(cases) || !cases.every((c) => ids((c as Case).promptIds) && ids((c as Case).reference))) {
    throw new ParityError('reference.py printed JSON without cases of promptIds and reference token ids.');
  }
  return cases as { promptIds: number[]; reference: number[] }[];
}

type IdsEngine = Pick<OnnxEngine, 'generateFromIds' | 'dispose'>;

/** The engine's greedy tokens for each prompt, all prompts in one generate call (rows batched as the app batches them). */
async function engineTokens(open: () => Promise<IdsEngine>, prompts: number[][], tokens: number): Promise<number[][]> {
  const engine = await open();
  try {
    const out = prompts.map(() => [] as number[]);
    const results = await engine.generateFromIds(
      prompts.map((promptIds, i) => ({
        id: String(i),
        promptIds,
        sampling: { temperature: 0, topK: 0, topP: 1, maxTokens: tokens, seed: 0, stop: [] },
      })),
      (event) => {
        if (event.tokenId !== undefined) out[Number(event.requestId)]!.push(event.tokenId);
      },
    );
    const failed = results.find((result) => result.finishReason === 'error');
    if (failed) throw new ParityError(`The engine failed: ${failed.error}`);
    return out;
  } finally {
    await engine.dispose();
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      hf: { type: 'string' },
      onnx: { type: 'string' },
      gguf: { type: 'string' },
      engine: { type: 'string', default: 'onnx' },
      'prompt-ids': { type: 'string' },
      tokens: { type: 'string', default: '32' },
      precision: { type: 'string', default: 'fp32' },
      layout: { type: 'string', default: 'tokens' },
      json: { type: 'boolean', default: false },
    },
  });
  if (!values.hf) throw new ParityError('Name the Hugging Face checkpoint: npm run model:parity -- --hf HF_DIR [--onnx DIR].');
  const tokens = Number(values.tokens);
  if (!Number.isInteger(tokens) || tokens < 1) throw new ParityError(`--tokens must be a whole number of at least 1, not "${values.tokens}".`);
  if (!existsSync(PYTHON)) {
    throw new ParityError(`The Python tooling is not set up (${PYTHON} is missing): run npm run python:setup, then run this again.`);
  }
  if (values.engine !== 'onnx' && values.engine !== 'gguf') throw new ParityError(`--engine must be onnx or gguf, not "${values.engine}".`);
  const gguf = values.engine === 'gguf';
  if (gguf && values.precision !== 'fp32') throw new ParityError('--engine gguf compares an f32 GGUF; leave --precision out.');
  const hf = resolve(values.hf);
  let onnx = values.onnx ? resolve(values.onnx) : null;
  let ggufFile = values.gguf ? resolve(values.gguf) : null;
  const scratch = (gguf ? ggufFile : onnx) ? null : mkdtempSync(join(tmpdir(), 'worldloom-parity-'));
  try {
    if (gguf && !ggufFile) {
      ggufFile = join(scratch!, 'model-f32.gguf');
      python('convert', ['--to', 'gguf', '--from', hf, '--out', ggufFile, '--type', 'f32'], false);
    } else if (!gguf && !onnx) {
      onnx = join(scratch!, 'onnx');
      python('convert', ['--from', hf, '--out', onnx, '--precision', values.precision!, '--layout', values.layout!], false);
    }
    const prompts = values['prompt-ids'] ? ['--prompt-ids', resolve(values['prompt-ids'])] : ['--chat'];
    // fp16 and int4 folders hold rounded weights: transformers runs on the same rounded weights,
    // so identical tokens stay the bar (with --onnx, --precision says how that folder was stored).
    const asStored = ['--as-stored', values.precision!];
    const reference = referenceCases(python('reference', ['--hf', hf, ...prompts, '--tokens', String(tokens), '--json', ...asStored], true));
    const eos = gguf ? checkpointEosIds(hf) : new Set(readModelFolder(onnx!).config.eosTokenIds);
    const promptIds = reference.map((c) => c.promptIds);
    const open = gguf
      ? () => GgufEngine.load(ggufFile!, {
        device: 'cpu',
        kvCache: 'f32',
        sequences: promptIds.length,
        contextLength: Math.max(1024, ...promptIds.map((p) => p.length + tokens + 1)),
      })
      : () => OnnxEngine.load(onnx!, { providers: ['cpu'] });
    const engine = await engineTokens(open, promptIds, tokens);
    const cases: Case[] = reference.map((c, i) => {
      // The engine ends at an end-of-sequence id without emitting it; transformers lists it.
      const end = c.reference.findIndex((id) => eos.has(id));
      const expected = end < 0 ? c.reference : c.reference.slice(0, end);
      const ours = engine[i]!;
      return { ...c, engine: ours, identical: ours.length === expected.length && ours.every((id, k) => id === expected[k]) };
    });
    if (values.json) {
      process.stdout.write(JSON.stringify({ cases }) + '\n');
    } else {
      for (const [i, c] of cases.entries()) {
        const at = c.engine.findIndex((id, k) => id !== c.reference[k]);
        process.stdout.write(
          `case ${i + 1}: ${c.promptIds.length} prompt tokens, ${c.reference.length} reference tokens: ` +
            (c.identical ? 'identical\n' : `DIFFERENT from token ${at < 0 ? c.engine.length : at}\n`),
        );
      }
    }
    return cases.every((c) => c.identical) ? 0 : 1;
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

/** End-of-sequence ids of the checkpoint (generation_config.json, else config.json): where greedy decoding ends. */
function checkpointEosIds(hf: string): Set<number> {
  const ids = new Set<number>();
  for (const name of ['generation_config.json', 'config.json']) {
    const path = join(hf, name);
    if (!existsSync(path)) continue;
    const value = (JSON.parse(readFileSync(path, 'utf8')) as { eos_token_id?: number | number[] }).eos_token_id;
    for (const id of Array.isArray(value) ? value : value === undefined ? [] : [value]) ids.add(id);
    if (ids.size > 0) break;
  }
  return ids;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`model:parity: ${error instanceof ParityError ? error.message : (error as Error).stack}\n`);
    process.exit(2);
  },
);
