import { describe, expect, it } from 'vitest';
import { planRecipe, readRecipes, validateRecipe, type PlanStep, type RecipeFile } from './recipe';

const DATA = '/data';
const OPTIONS = { seed: 1234, coinedSeed: 4321, wideSeed: 5555, dataDir: DATA, checkpoint: '/out/hf-checkpoint' };

/** What a step writes: the --out of a script, the tokenizer folder, a stage's checkpoint. */
function written(step: PlanStep): string[] {
  const { args } = step;
  const flag = (name: string) => (args.includes(name) ? [args[args.indexOf(name) + 1]!] : []);
  if (step.runner === 'tsx') return flag('--out');
  const module = args[1];
  if (module === 'world_model.train_tokenizer') return [args[3]!];
  if (module === 'world_model.train') return [args[4]!];
  if (module === 'world_model.average_checkpoints') return [args.at(-1)!];
  if (module === 'world_model.grow') return flag('--out');
  return [];
}

/** What a step reads from the data folder or the checkpoint: every path argument it does not write. */
function read(step: PlanStep): string[] {
  const out = new Set(written(step));
  return step.args.filter((arg) => (arg.startsWith(DATA) || arg.startsWith('/out/')) && !out.has(arg));
}

describe('the training recipes (recipes.json)', () => {
  const recipes = readRecipes();

  it('parse, and each stage of each recipe is valid', () => {
    expect(Object.keys(recipes.recipes).sort()).toEqual(['cpu', 'gpu']);
    for (const name of Object.keys(recipes.recipes)) expect(validateRecipe(recipes, name).stages.length).toBeGreaterThan(0);
  });

  it('plan every step after the steps that make what it reads, the last stage writing the checkpoint', () => {
    for (const name of ['cpu', 'gpu']) {
      const plan = planRecipe(recipes, name, OPTIONS);
      const made = new Set<string>();
      for (const step of plan) {
        for (const path of read(step)) expect(made.has(path), `${name}: ${step.label} reads ${path} before any step makes it`).toBe(true);
        written(step).forEach((path) => made.add(path));
      }
      expect(written(plan.at(-1)!)).toEqual([OPTIONS.checkpoint]);
    }
  });

  it('lays out the shipped model: 18 training runs, the grown model and the averages of stage 11', () => {
    const plan = planRecipe(recipes, 'gpu', OPTIONS);
    const train = plan.filter((step) => step.args[1] === 'world_model.train');
    expect(train).toHaveLength(18);
    // Stage 1 from scratch on the GPU; every later run starts from saved weights.
    expect(train[0]!.args).not.toContain('--init-from');
    expect(train.slice(1).every((step) => step.args.includes('--init-from'))).toBe(true);
    expect(plan.find((step) => step.args[1] === 'world_model.grow')!.args).toEqual(['-m', 'world_model.grow', '--from', `${DATA}/hf-checkpoint-stage7-9`, '--out', `${DATA}/hf-checkpoint-grown`]);
    // Three runs averaged: the first two half and half, then the third at a third.
    const last = plan.slice(-2).map((step) => step.args.slice(2));
    expect(last).toEqual([
      [`${DATA}/hf-checkpoint-stage11-2a`, `${DATA}/hf-checkpoint-stage11-2b`, '0.5', '/out/hf-checkpoint-ab'],
      ['/out/hf-checkpoint-ab', `${DATA}/hf-checkpoint-stage11-2c`, String(1 / 3), '/out/hf-checkpoint'],
    ]);
    // A mix and the stage's own values combine: stage 9 replays stage 7's files, then its fresh sets.
    const stage9 = train.find((step) => step.label === 'train (stage 9)')!.args;
    const extras = stage9.flatMap((arg, i) => (arg === '--extra-samples' ? [stage9[i + 1]!.slice(DATA.length + 1)] : []));
    expect(extras).toEqual(['samples-coined.jsonl', 'samples.jsonl', 'control-contrast-samples.jsonl', 'control-targeted-samples.jsonl', 'samples-coined2.jsonl', 'samples-wide2.jsonl']);
    expect(stage9).toEqual(expect.arrayContaining(['--seed', '1255', '--tokens-per-batch', '131072', '--share', 'mcp/session=1', '--source-share', 'samples.jsonl=0.35']));
  });

  it('lets --steps and --tokens-per-batch set the one-stage cpu recipe, and refuses them for the gpu one', () => {
    const plan = planRecipe(recipes, 'cpu', { ...OPTIONS, steps: 200, tokensPerBatch: 2048 });
    const train = plan.find((step) => step.args[1] === 'world_model.train')!.args;
    expect(train).toEqual(expect.arrayContaining(['--steps', '200', '--tokens-per-batch', '2048', '--device', 'cpu']));
    expect(() => planRecipe(recipes, 'gpu', { ...OPTIONS, steps: 200 })).toThrow(/one-stage recipe's schedule; recipe "gpu" has 18 training stages/);
  });

  it('refuses a recipe that names what it does not define, saying where', () => {
    const broken = (edit: (file: RecipeFile) => void) => {
      const copy = structuredClone(recipes);
      edit(copy);
      return () => validateRecipe(copy, 'gpu');
    };
    expect(() => validateRecipe(recipes, 'tpu')).toThrow(/no recipe "tpu"; recipes.json has cpu, gpu/);
    expect(broken((file) => (file.recipes.gpu!.stages[1]!.train!.init = 'stage9'))).toThrow(/stage "stage2": "stage9" is not an earlier stage/);
    expect(broken((file) => file.recipes.gpu!.stages[0]!.train!.extra = ['coined9'])).toThrow(/stage "stage1": "coined9" is not one of the recipe's sets/);
    expect(broken((file) => (file.recipes.gpu!.stages[0]!.train!.options!.epochs = 3))).toThrow(/stage "stage1": "epochs" is not a train.py option/);
    expect(broken((file) => (file.recipes.gpu!.stages[0]!.train!.options!.steps = 0))).toThrow(/stage "stage1": steps must be above 0/);
    expect(broken((file) => (file.recipes.gpu!.stages[4]!.train!.share!['mcp/control'] = -1))).toThrow(/share of mcp\/control must be a number of 0 or more/);
    expect(broken((file) => (file.recipes.gpu!.stages[3]!.average!.weight = 1.5))).toThrow(/weight \(the second stage's share, between 0 and 1\)/);
    expect(broken((file) => file.recipes.gpu!.stages.push({ name: 'stage1', grow: { from: 'final' } }))).toThrow(/stage "stage1": the name is used twice/);
  });
});
