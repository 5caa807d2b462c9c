// `npm run model:build`: record → chats → tokenizer → samples → train → convert → eval, for one
// seed. Every stage is deterministic for the seed on the CPU; training checkpoints and resumes
// when rerun. On a 2-core CPU the defaults take about an hour (recording ~12 min, training
// ~40 min); with a GPU, pass more --steps.
//
//   npm run model:build -- [--seed N] [--steps N] [--precision fp32|int4] [--skip-record] [--skip-eval]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CHECKPOINT_DIR, DATA_DIR, MODEL_DIR, REPO_ROOT } from './paths';

const PYTHON = process.env.WORLDLOOM_PYTHON ?? join(REPO_ROOT, 'native', '.venv', 'bin', 'python');
const TSX = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
const HERE = join(REPO_ROOT, 'native', 'world-model');
const TOKENIZER_DIR = join(DATA_DIR, 'tokenizer');

function run(label: string, command: string, args: string[]): void {
  console.log(`\n== ${label}: ${[command, ...args].join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: REPO_ROOT });
  if (result.error) {
    throw new Error(`${label} could not start (${result.error.message}). ${command === PYTHON ? 'Set up the Python tools first: npm run python:setup' : 'Run npm install first.'}`);
  }
  if (result.status !== 0) throw new Error(`${label} failed with exit code ${result.status}; fix the error above and run npm run model:build again (training resumes from its checkpoint).`);
  console.log(`== ${label} done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1234' },
    steps: { type: 'string', default: '500' },
    'tokens-per-batch': { type: 'string', default: '6144' },
    precision: { type: 'string', default: 'fp32' },
    'skip-record': { type: 'boolean', default: false },
    'skip-eval': { type: 'boolean', default: false },
  },
});
if (!['fp32', 'int4'].includes(values.precision!)) throw new Error(`--precision is fp32 or int4, not ${values.precision}.`);
const sessions = join(DATA_DIR, 'sessions.jsonl');
if (!values['skip-record'] || !existsSync(sessions)) run('record', TSX, [join(HERE, 'record.ts'), '--seed', values.seed!, '--out', sessions]);
run('chats', TSX, [join(HERE, 'chats.ts'), '--seed', values.seed!, '--sessions', sessions]);
run('tokenizer', PYTHON, [join(HERE, 'train_tokenizer.py'), join(DATA_DIR, 'chats.jsonl'), TOKENIZER_DIR]);
run('samples', TSX, [join(HERE, 'samples.ts'), '--tokenizer', TOKENIZER_DIR]);
run('train', PYTHON, [join(HERE, 'train.py'), join(DATA_DIR, 'samples.jsonl'), TOKENIZER_DIR, CHECKPOINT_DIR,
  '--steps', values.steps!, '--seed', values.seed!, '--tokens-per-batch', values['tokens-per-batch']!]);
run('convert', PYTHON, [join(REPO_ROOT, 'native', 'qwen35', 'convert.py'), '--from', CHECKPOINT_DIR, '--out', MODEL_DIR, '--precision', values.precision!]);
if (!values['skip-eval']) run('eval', TSX, [join(HERE, 'eval.ts'), '--model', MODEL_DIR]);
