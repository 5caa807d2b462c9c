// worldloom-nano's training recipes (recipes.json) and the one stage runner's plan: which
// commands `npm run model:build` runs, in order, for a recipe. The recipe is data so the
// shipped model's history of stages reads as a table and a new recipe is a new entry, not code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const RECIPES_FILE = join(import.meta.dirname, 'recipes.json');

type SeedBase = 'seed' | 'coined-seed' | 'wide-seed';
interface SeedRef {
  base: SeedBase;
  plus?: number;
}
/** A recorded session set (record.ts arguments) or a control-pair set made from one (control-chats.ts). */
interface SetSpec {
  seed?: SeedRef;
  record?: string[];
  control?: { from: string; seed?: SeedRef; args: string[] };
}
/** train.py's arguments for one stage, or a reusable part of them (a mix). */
interface TrainParts {
  extra?: string[];
  options?: Record<string, string | number | boolean>;
  share?: Record<string, number>;
  sourceShare?: Record<string, number>;
}
interface TrainSpec extends TrainParts {
  samples: string;
  init?: string;
  mix?: string[];
  seedOffset?: number;
}
interface StageSpec {
  name: string;
  label?: string;
  train?: TrainSpec;
  average?: { of: string[]; weight?: number };
  grow?: { from: string };
}
export interface Recipe {
  description: string;
  tokenizer: string;
  sets: string[];
  mixes?: Record<string, TrainParts>;
  stages: StageSpec[];
}
export interface RecipeFile {
  sets: Record<string, SetSpec>;
  recipes: Record<string, Recipe>;
}

/** One command of the plan: `tsx FILE …` or `python -m MODULE …`. */
export interface PlanStep {
  label: string;
  runner: 'tsx' | 'python';
  args: string[];
  /** Set for recording steps: skipped under --skip-record when this file exists. */
  skipIfExists?: string;
}

export interface PlanOptions {
  seed: number;
  coinedSeed: number;
  wideSeed: number;
  /** native/world_model/data */
  dataDir: string;
  /** Where the recipe's last stage writes its checkpoint. */
  checkpoint: string;
  /** Overrides of the training stage's steps and tokens per batch (recipes with one training stage only). */
  steps?: number;
  tokensPerBatch?: number;
}

const TRAIN_OPTIONS = new Set(['steps', 'stop-after', 'tokens-per-batch', 'lr', 'mcp-share', 'web-share', 'threads', 'device', 'cpu-bf16', 'minutes', 'snapshot-every', 'train-layers']);
const SHARE_KEY = /^(terminal|mcp|web)\/[a-z-]+$/;

export function readRecipes(file = RECIPES_FILE): RecipeFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} is not readable JSON (${(error as Error).message}); fix it or restore it from git.`);
  }
  const recipes = parsed as RecipeFile;
  for (const name of Object.keys(recipes.recipes ?? {})) validateRecipe(recipes, name);
  return recipes;
}

/** Throws, naming the stage and the field, when a recipe refers to something it does not define. */
export function validateRecipe(file: RecipeFile, name: string): Recipe {
  const recipe = file.recipes?.[name];
  if (!recipe) throw new Error(`There is no recipe "${name}"; recipes.json has ${Object.keys(file.recipes ?? {}).join(', ')}.`);
  const where = (stage: string) => `recipes.json, recipe "${name}", ${stage}`;
  const sets = new Set(recipe.sets);
  for (const set of recipe.sets) {
    const spec = file.sets?.[set];
    if (!spec) throw new Error(`${where('sets')}: "${set}" is not defined under "sets".`);
    if (!!spec.record === !!spec.control) throw new Error(`recipes.json, set "${set}": give either record or control.`);
    if (spec.record && !spec.seed) throw new Error(`recipes.json, set "${set}": a recorded set needs a seed.`);
    if (spec.control && !sets.has(spec.control.from)) throw new Error(`recipes.json, set "${set}": its sessions "${spec.control.from}" are not a set of recipe "${name}".`);
  }
  if (!sets.has(recipe.tokenizer) || !file.sets[recipe.tokenizer]?.record) throw new Error(`${where('tokenizer')}: "${recipe.tokenizer}" is not a recorded set of the recipe.`);
  if (!recipe.stages?.length) throw new Error(`${where('stages')}: a recipe needs at least one stage.`);
  const done = new Set<string>();
  const checkSet = (stage: string, set: string) => {
    if (!sets.has(set)) throw new Error(`${where(`stage "${stage}"`)}: "${set}" is not one of the recipe's sets.`);
  };
  const checkParts = (stage: string, parts: TrainParts) => {
    parts.extra?.forEach((set) => checkSet(stage, set));
    Object.keys(parts.sourceShare ?? {}).forEach((set) => checkSet(stage, set));
    for (const [key, value] of Object.entries(parts.options ?? {})) {
      if (!TRAIN_OPTIONS.has(key)) throw new Error(`${where(`stage "${stage}"`)}: "${key}" is not a train.py option this runner passes (${[...TRAIN_OPTIONS].join(', ')}).`);
      if (key !== 'device' && key !== 'train-layers' && typeof value === 'number' && !(value > 0)) throw new Error(`${where(`stage "${stage}"`)}: ${key} must be above 0.`);
    }
    for (const [key, value] of [...Object.entries(parts.share ?? {}), ...Object.entries(parts.sourceShare ?? {})]) {
      if (!(typeof value === 'number' && value >= 0)) throw new Error(`${where(`stage "${stage}"`)}: the share of ${key} must be a number of 0 or more.`);
    }
    for (const key of Object.keys(parts.share ?? {})) {
      if (!SHARE_KEY.test(key)) throw new Error(`${where(`stage "${stage}"`)}: share "${key}" is not DOMAIN/KIND (terminal, mcp or web).`);
    }
  };
  for (const [mix, parts] of Object.entries(recipe.mixes ?? {})) checkParts(`mix ${mix}`, parts);
  for (const stage of recipe.stages) {
    if (done.has(stage.name)) throw new Error(`${where(`stage "${stage.name}"`)}: the name is used twice.`);
    const kinds = [stage.train, stage.average, stage.grow].filter(Boolean).length;
    if (kinds !== 1) throw new Error(`${where(`stage "${stage.name}"`)}: give exactly one of train, average or grow.`);
    const earlier = (ref: string) => {
      if (!done.has(ref)) throw new Error(`${where(`stage "${stage.name}"`)}: "${ref}" is not an earlier stage.`);
    };
    if (stage.train) {
      checkSet(stage.name, stage.train.samples);
      if (stage.train.init) earlier(stage.train.init);
      for (const mix of stage.train.mix ?? []) {
        if (!recipe.mixes?.[mix]) throw new Error(`${where(`stage "${stage.name}"`)}: there is no mix "${mix}".`);
      }
      checkParts(stage.name, stage.train);
      const merged = mergeParts(recipe, stage.train);
      if (!merged.options.steps) throw new Error(`${where(`stage "${stage.name}"`)}: a training stage needs steps.`);
    }
    if (stage.average) {
      if (stage.average.of.length < 2) throw new Error(`${where(`stage "${stage.name}"`)}: average at least two stages.`);
      if (stage.average.weight !== undefined && (stage.average.of.length !== 2 || !(stage.average.weight > 0 && stage.average.weight < 1))) {
        throw new Error(`${where(`stage "${stage.name}"`)}: weight (the second stage's share, between 0 and 1) is for an average of two.`);
      }
      stage.average.of.forEach(earlier);
    }
    if (stage.grow) earlier(stage.grow.from);
    done.add(stage.name);
  }
  return recipe;
}

function mergeParts(recipe: Recipe, train: TrainSpec): Required<TrainParts> {
  const parts = [...(train.mix ?? []).map((mix) => recipe.mixes![mix]!), train];
  return {
    extra: parts.flatMap((part) => part.extra ?? []),
    options: Object.assign({}, ...parts.map((part) => part.options ?? {})),
    share: Object.assign({}, ...parts.map((part) => part.share ?? {})),
    sourceShare: Object.assign({}, ...parts.map((part) => part.sourceShare ?? {})),
  };
}

/** The commands of a build with `recipeName`, from recording to the last checkpoint. */
export function planRecipe(file: RecipeFile, recipeName: string, options: PlanOptions): PlanStep[] {
  const recipe = validateRecipe(file, recipeName);
  const data = (name: string) => join(options.dataDir, name);
  const seedOf = (ref: SeedRef) => String({ seed: options.seed, 'coined-seed': options.coinedSeed, 'wide-seed': options.wideSeed }[ref.base] + (ref.plus ?? 0));
  const tokenizerDir = data('tokenizer');
  const isClassic = (set: string) => set === recipe.tokenizer;
  const samplesFile = (set: string) => (file.sets[set]!.control ? data(`${set}-samples.jsonl`) : isClassic(set) ? data('samples.jsonl') : data(`samples-${set}.jsonl`));
  const steps: PlanStep[] = [];
  const prepare = (set: string) => {
    const spec = file.sets[set]!;
    if (spec.control) {
      const chats = data(`${set}-chats.jsonl`);
      const seed = spec.control.seed ? ['--seed', seedOf(spec.control.seed)] : [];
      steps.push({ label: `control pairs (${set})`, runner: 'tsx', args: ['control-chats.ts', '--sessions', sessionsFile(spec.control.from), ...spec.control.args, ...seed, '--out', chats] });
      steps.push({ label: `samples (${set})`, runner: 'tsx', args: ['samples.ts', '--tokenizer', tokenizerDir, '--chats', chats, '--out', samplesFile(set)] });
      return;
    }
    const seed = seedOf(spec.seed!);
    const sessions = sessionsFile(set);
    const chats = isClassic(set) ? data('chats.jsonl') : data(`chats-${set}.jsonl`);
    steps.push({ label: `record (${set})`, runner: 'tsx', args: ['record.ts', '--seed', seed, ...spec.record!, '--out', sessions], skipIfExists: sessions });
    steps.push({ label: `chats (${set})`, runner: 'tsx', args: ['chats.ts', '--seed', seed, '--sessions', sessions, '--out', chats] });
    if (isClassic(set)) steps.push({ label: 'tokenizer', runner: 'python', args: ['-m', 'world_model.train_tokenizer', chats, tokenizerDir] });
    steps.push({ label: `samples (${set})`, runner: 'tsx', args: ['samples.ts', '--tokenizer', tokenizerDir, '--chats', chats, '--out', samplesFile(set)] });
  };
  const sessionsFile = (set: string) => (isClassic(set) ? data('sessions.jsonl') : data(`sessions-${set}.jsonl`));
  // The tokenizer's set first: every other set's samples are tokenized with it.
  prepare(recipe.tokenizer);
  recipe.sets.filter((set) => set !== recipe.tokenizer).forEach(prepare);

  const trainStages = recipe.stages.filter((stage) => stage.train);
  if ((options.steps !== undefined || options.tokensPerBatch !== undefined) && trainStages.length !== 1) {
    throw new Error(`--steps and --tokens-per-batch set a one-stage recipe's schedule; recipe "${recipeName}" has ${trainStages.length} training stages (edit recipes.json instead).`);
  }
  const last = recipe.stages.at(-1)!.name;
  const out = (stage: string) => (stage === last ? options.checkpoint : data(`hf-checkpoint-${stage}`));
  for (const stage of recipe.stages) {
    const label = stage.label ?? stage.name;
    if (stage.train) {
      const parts = mergeParts(recipe, stage.train);
      if (options.steps !== undefined) parts.options.steps = options.steps;
      if (options.tokensPerBatch !== undefined) parts.options['tokens-per-batch'] = options.tokensPerBatch;
      const args = ['-m', 'world_model.train', samplesFile(stage.train.samples), tokenizerDir, out(stage.name), '--seed', String(options.seed + (stage.train.seedOffset ?? 0))];
      if (stage.train.init) args.push('--init-from', out(stage.train.init));
      for (const set of parts.extra) args.push('--extra-samples', samplesFile(set));
      for (const [key, value] of Object.entries(parts.options)) {
        if (value === true) args.push(`--${key}`);
        else if (value !== false) args.push(`--${key}`, String(value));
      }
      for (const [key, value] of Object.entries(parts.share)) args.push('--share', `${key}=${value}`);
      for (const [set, value] of Object.entries(parts.sourceShare)) args.push('--source-share', `${samplesFile(set).split('/').at(-1)}=${value}`);
      steps.push({ label: `train (${label})`, runner: 'python', args });
    } else if (stage.average) {
      const [first, ...rest] = stage.average.of;
      let running = out(first!);
      rest.forEach((next, i) => {
        const final = i === rest.length - 1;
        const target = final ? out(stage.name) : `${out(stage.name)}-${'abcdefghij'.slice(0, i + 2)}`;
        const weight = stage.average!.weight ?? 1 / (i + 2);
        steps.push({ label: `average (${label}${final ? '' : `, first ${i + 2}`})`, runner: 'python', args: ['-m', 'world_model.average_checkpoints', running, out(next), String(weight), target] });
        running = target;
      });
    } else if (stage.grow) {
      steps.push({ label: `grow (${label})`, runner: 'python', args: ['-m', 'world_model.grow', '--from', out(stage.grow.from), '--out', out(stage.name)] });
    }
  }
  return steps;
}
