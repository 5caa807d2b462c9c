// `npm run model:build`: record → chats → tokenizer → samples → train → convert → parity → eval,
// for one seed. What it records and how it trains is a recipe in recipes.json (recipe.ts reads and
// checks it and lays out the commands); this file runs them. Every step is deterministic for the
// seed on a CPU; training checkpoints and resumes when rerun.
//
// - cpu (default): one CPU stage of small batches; about an hour on a shared 2-core machine
//   (recording ~15 min, training ~40 min). A weaker model than the shipped one: far fewer tokens seen.
// - gpu: the shipped model's recipe (MODEL_CARD.md, "Training procedure"): GPU and CPU stages,
//   checkpoint averages and a grown model; its GPU stages need a CUDA machine.
//
//   npm run model:build -- [--recipe cpu|gpu] [--dry-run] [--seed N] [--steps N] [--tokens-per-batch N] [--precision fp32|int4]
//                          [--skip-record] [--skip-eval] [--out DIR] [--checkpoint DIR]   (a trial build that leaves the shipped model alone)
// --dry-run prints the plan (every command, in order) and runs nothing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CHECKPOINT_DIR, DATA_DIR, MODEL_DIR, REPO_ROOT } from './paths';
import { planRecipe, readRecipes, type PlanStep } from './recipe';

const PYTHON = join(REPO_ROOT, 'native', '.venv', 'bin', 'python');
const TSX = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
const HERE = join(REPO_ROOT, 'native', 'world_model');

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1234' },
    steps: { type: 'string' },
    'tokens-per-batch': { type: 'string' },
    precision: { type: 'string', default: 'fp32' },
    recipe: { type: 'string', default: 'cpu' },
    out: { type: 'string', default: MODEL_DIR },
    checkpoint: { type: 'string', default: CHECKPOINT_DIR },
    'skip-record': { type: 'boolean', default: false },
    'skip-eval': { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
    'coined-seed': { type: 'string', default: '4321' },
    'wide-seed': { type: 'string', default: '5555' },
  },
});
const integer = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`--${name} is a whole number, not ${value}.`);
  return Number(value);
};
if (!['fp32', 'int4'].includes(values.precision!)) throw new Error(`--precision is fp32 or int4, not ${values.precision}.`);
const modelDir = values.out!;
const checkpoint = values.checkpoint!;
const plan: PlanStep[] = planRecipe(readRecipes(), values.recipe!, {
  seed: integer('seed', values.seed)!,
  coinedSeed: integer('coined-seed', values['coined-seed'])!,
  wideSeed: integer('wide-seed', values['wide-seed'])!,
  dataDir: DATA_DIR,
  checkpoint,
  steps: integer('steps', values.steps),
  tokensPerBatch: integer('tokens-per-batch', values['tokens-per-batch']),
});
// fp32 is checked by the converter itself (logits within a bound scaled by their size, greedy
// tokens identical to transformers; exit 1 otherwise) and then through the engine by model:parity.
// int4 skips the converter's check: on worldloom-nano one position of its 1,502-token prompt is a
// router near-tie that onnxruntime's int4 kernel breaks the other way (a 0.62 logit difference there,
// every greedy token still the same), which its exact-weights logit bound cannot tell from an error.
const convertCheck = values.precision === 'fp32' ? [] : ['--no-check'];
plan.push({ label: 'convert', runner: 'python', args: ['-m', 'qwen35.convert', '--from', checkpoint, '--out', modelDir, '--precision', values.precision!, ...convertCheck] });
// int4 rounds the weights on purpose, so only fp32 is held to token-for-token parity.
if (values.precision === 'fp32') plan.push({ label: 'parity', runner: 'tsx', args: [join(REPO_ROOT, 'native', 'qwen35', 'parity.ts'), '--hf', checkpoint, '--onnx', modelDir, '--tokens', '24'] });
if (!values['skip-eval']) plan.push({ label: 'eval', runner: 'tsx', args: ['eval.ts', '--model', modelDir] });

/** The command line of a step: tsx scripts are files of this folder unless given with a path. */
function commandOf(step: PlanStep): [string, string[]] {
  if (step.runner === 'python') return [PYTHON, step.args];
  const [script, ...rest] = step.args;
  return [TSX, [script!.includes('/') ? script! : join(HERE, script!), ...rest]];
}

function run(step: PlanStep): void {
  const [command, args] = commandOf(step);
  console.log(`\n== ${step.label}: ${[command, ...args].join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', cwd: REPO_ROOT });
  if (result.error) {
    throw new Error(`${step.label} could not start (${result.error.message}). ${step.runner === 'python' ? 'Set up the Python tools first: npm run python:setup' : 'Run npm install first.'}`);
  }
  if (result.status !== 0) throw new Error(`${step.label} failed with exit code ${result.status}; fix the error above and run npm run model:build again (training resumes from its checkpoint).`);
  console.log(`== ${step.label} done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

if (values['dry-run']) {
  console.log(`recipe ${values.recipe}: ${plan.length} steps`);
  for (const step of plan) {
    const [command, args] = commandOf(step);
    const skip = step.skipIfExists && values['skip-record'] && existsSync(step.skipIfExists) ? ' (skipped: --skip-record and the file exists)' : '';
    console.log(`${step.label}${skip}: ${[command, ...args].join(' ')}`);
  }
} else {
  for (const step of plan) {
    if (step.skipIfExists && values['skip-record'] && existsSync(step.skipIfExists)) continue;
    run(step);
  }
}
