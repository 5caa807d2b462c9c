// `npm run model:build`: record → tokenizer → samples → train → export → eval, for one seed.
// Every stage is deterministic for the seed; training checkpoints and resumes when rerun.
//
//   npm run model:build -- [--seed N] [--steps N] [--fresh]
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DATA_DIR, MODEL_DIR, REPO_ROOT } from './paths';

const PYTHON = process.env.WORLDLOOM_PYTHON ?? '/usr/bin/python3';
const TSX = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
const HERE = join(REPO_ROOT, 'native', 'world-model');

function run(label: string, command: string, args: string[]): void {
  console.log(`\n== ${label}: ${[command, ...args].join(' ')}`);
  const started = Date.now();
  // One BLAS/OpenMP thread: see train.py on why two are slower on a shared machine.
  const env = { ...process.env, OMP_NUM_THREADS: process.env.OMP_NUM_THREADS ?? '1', OPENBLAS_NUM_THREADS: process.env.OPENBLAS_NUM_THREADS ?? '1' };
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: REPO_ROOT, env });
  if (result.error) throw new Error(`${label} could not start (${result.error.message}). ${command === PYTHON ? 'Install Debian\'s PyTorch: apt-get install -y python3-torch python3-onnx' : 'Run npm install first.'}`);
  if (result.status !== 0) throw new Error(`${label} failed with exit code ${result.status}; fix the error above and run npm run model:build again (training resumes from its checkpoint).`);
  console.log(`== ${label} done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1234' },
    steps: { type: 'string', default: '4500' },
    fresh: { type: 'boolean', default: false },
  },
});
if (values.fresh) rmSync(join(DATA_DIR, 'checkpoint.pt'), { force: true });
run('record', TSX, [join(HERE, 'record.ts'), '--seed', values.seed!]);
run('tokenizer', PYTHON, [join(HERE, 'train_tokenizer.py'), DATA_DIR, MODEL_DIR]);
run('samples', TSX, [join(HERE, 'samples.ts')]);
run('train + export', PYTHON, [join(HERE, 'train.py'), DATA_DIR, MODEL_DIR, '--steps', values.steps!, '--seed', values.seed!]);
run('eval', TSX, [join(HERE, 'eval.ts')]);
