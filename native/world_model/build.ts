// `npm run model:build`: record → chats → tokenizer → samples → train → convert → eval, for one
// seed. Every stage is deterministic for the seed on the CPU; training checkpoints and resumes
// when rerun.
//
// Two training recipes:
// - cpu (default): one stage of --steps small batches (1,200 of 3,072 tokens, MCP and web
//   samples at 10 % and 20 % per epoch: their 4,000-token prompts are slow on a CPU); on a
//   shared 2-core CPU about an hour in all (recording ~15 min, training ~40 min at the
//   1.4–2 s per step measured). A weaker model than the shipped one: far fewer tokens seen.
// - gpu: the shipped model's recipe (MODEL_CARD.md): on a GPU 383 steps of 65,536 tokens, then
//   303 steps of 32,768 tokens from those weights with less MCP and web (about 10 minutes on
//   one H100); then on the CPU 1,000 small terminal-heavy steps from there (~25 min), averaged
//   0.3 × the GPU model + 0.7 × the CPU fine-tune; then stage 4 on the CPU (~95 min on 2
//   cores): 4,500 small steps of a 5,000-step schedule that add terminal sessions with
//   coined names (so the model copies names instead of recalling them from the classic
//   lists) and control pairs with their unperturbed twins (control-chats.ts --contrast) for
//   the instruction perturbations; then stage 5 on the CPU (~100 min): 4,500 small steps of a
//   5,500-step schedule on terminal sessions with the wide tools (python3, sed, diff, scripts,
//   loops, configs, logs, JSON) over a replay of everything before at a fraction
//   (--source-share), with more control pairs of the kinds the eval showed least often
//   (control-chats.ts --kinds); then stage 6 on the CPU (~65 min): a whole 3,200-step schedule
//   from stage 5, down to a tenth of its learning rate, with the coined sessions at full share;
//   then stage 7 (~35 min): 1,700 steps from stage 6 at half its learning rate with MCP
//   sessions at a whole share (stage 6 had cost MCP some similarity); then stages 8 and 9 on
//   the GPU again (~6 and ~5 min on one H100): 492 steps of 65,536 tokens on stage 7's mix,
//   then 305 steps of 131,072 tokens with fresh coined and wide-tool sessions (the next seeds)
//   beside it; 0.5 × stage 7 + 0.5 × stage 9 (the weights shipped before stage 10); then
//   stage 10 on the GPU (~11 min on one H200): that average grown to 10 layers (grow.py: a copy
//   of each full-attention layer), 242 steps of 65,536 tokens on four fresh sets of coined and
//   wide-tool sessions (seeds + 2 and + 3), then two runs on from there (371 steps at 5e-4, 393
//   at 3e-4), averaged; then stage 11 on the GPU (~11 min on one H200): three runs side by side
//   from that average on four more fresh sets (coined names, seeds + 4 and + 5; wide tools, + 4;
//   classic names, --coined-seed + 9), ~380 steps of 65,536 tokens at 3e-4, averaged, and three
//   more from there (~220 steps at 2e-4), averaged again: the shipped weights.
//
// Both recipes record the coined-name sessions (seed --coined-seed, 5,000 terminal sessions,
// ~4 min) and the wide-tool sessions (seed --wide-seed, 4,000, ~4 min) beside the classic
// ones; the cpu recipe trains on all three at once, the gpu recipe also records more sets
// (the seeds + 1 for stage 9, + 2 and + 3 for stage 10, the four of stage 11).
//
//   npm run model:build -- [--seed N] [--recipe cpu|gpu] [--steps N] [--precision fp32|int4] [--skip-record] [--skip-eval]
//                          [--out DIR] [--checkpoint DIR]   (a trial build that leaves the shipped model alone)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { CHECKPOINT_DIR, DATA_DIR, MODEL_DIR, REPO_ROOT } from './paths';

const PYTHON = process.env.WORLDLOOM_PYTHON ?? join(REPO_ROOT, 'native', '.venv', 'bin', 'python');
const TSX = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
const HERE = join(REPO_ROOT, 'native', 'world_model');
const TOKENIZER_DIR = join(DATA_DIR, 'tokenizer');
/** The instruction-perturbation kinds stage 5 adds pairs of (control-chats.ts --kinds). */
const TARGETED_KINDS = ['terminal.disk-full', 'terminal.command-not-found', 'terminal.permission-denied', 'mcp.rate-limited', 'mcp.auth-expired',
  'mcp.tool-error', 'mcp.truncated-result', 'web.consent-popup'];

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
    steps: { type: 'string', default: '1200' },
    'tokens-per-batch': { type: 'string', default: '3072' },
    precision: { type: 'string', default: 'fp32' },
    recipe: { type: 'string', default: 'cpu' },
    out: { type: 'string', default: MODEL_DIR },
    checkpoint: { type: 'string', default: CHECKPOINT_DIR },
    'skip-record': { type: 'boolean', default: false },
    'skip-eval': { type: 'boolean', default: false },
    'coined-seed': { type: 'string', default: '4321' },
    'wide-seed': { type: 'string', default: '5555' },
  },
});
if (!['fp32', 'int4'].includes(values.precision!)) throw new Error(`--precision is fp32 or int4, not ${values.precision}.`);
if (!['cpu', 'gpu'].includes(values.recipe!)) throw new Error(`--recipe is cpu or gpu, not ${values.recipe}.`);
const sessions = join(DATA_DIR, 'sessions.jsonl');
if (!values['skip-record'] || !existsSync(sessions)) run('record', TSX, [join(HERE, 'record.ts'), '--seed', values.seed!, '--out', sessions]);
run('chats', TSX, [join(HERE, 'chats.ts'), '--seed', values.seed!, '--sessions', sessions]);
run('tokenizer', PYTHON, ['-m', 'world_model.train_tokenizer', join(DATA_DIR, 'chats.jsonl'), TOKENIZER_DIR]);
run('samples', TSX, [join(HERE, 'samples.ts'), '--tokenizer', TOKENIZER_DIR]);
const coinedSessions = join(DATA_DIR, 'sessions-coined.jsonl');
const coinedSamples = join(DATA_DIR, 'samples-coined.jsonl');
if (!values['skip-record'] || !existsSync(coinedSessions)) {
  run('record (coined names)', TSX, [join(HERE, 'record.ts'), '--seed', values['coined-seed']!, '--terminal', '5000', '--mcp', '0', '--web', '0', '--coined', '1', '--out', coinedSessions]);
}
run('chats (coined names)', TSX, [join(HERE, 'chats.ts'), '--seed', values['coined-seed']!, '--sessions', coinedSessions, '--out', join(DATA_DIR, 'chats-coined.jsonl')]);
run('samples (coined names)', TSX, [join(HERE, 'samples.ts'), '--tokenizer', TOKENIZER_DIR, '--chats', join(DATA_DIR, 'chats-coined.jsonl'), '--out', coinedSamples]);
const wideSessions = join(DATA_DIR, 'sessions-wide.jsonl');
const wideSamples = join(DATA_DIR, 'samples-wide.jsonl');
if (!values['skip-record'] || !existsSync(wideSessions)) {
  run('record (wide tools)', TSX, [join(HERE, 'record.ts'), '--seed', values['wide-seed']!, '--terminal', '4000', '--mcp', '0', '--web', '0', '--coined', '1', '--wide', '1', '--out', wideSessions]);
}
run('chats (wide tools)', TSX, [join(HERE, 'chats.ts'), '--seed', values['wide-seed']!, '--sessions', wideSessions, '--out', join(DATA_DIR, 'chats-wide.jsonl')]);
run('samples (wide tools)', TSX, [join(HERE, 'samples.ts'), '--tokenizer', TOKENIZER_DIR, '--chats', join(DATA_DIR, 'chats-wide.jsonl'), '--out', wideSamples]);
// The gpu recipe's stage 9 trains on more sessions of both kinds (the next seeds); stage 10 on
// two more sets of each (the seeds + 2 and + 3), stage 11 on four more; none of them is a set
// an earlier stage saw.
const freshSamples = (name: string) => join(DATA_DIR, `samples-${name}.jsonl`);
if (values.recipe === 'gpu') {
  // Stage 11 adds coined5, coined6 and wide5, and classic2: terminal sessions with the classic
  // names (seed --coined-seed + 9), half of what the evaluation's terminal sessions are.
  const fresh = [['coined2', 'coined', 1], ['wide2', 'wide', 1], ['coined3', 'coined', 2], ['wide3', 'wide', 2], ['coined4', 'coined', 3], ['wide4', 'wide', 3],
    ['coined5', 'coined', 4], ['coined6', 'coined', 5], ['wide5', 'wide', 4], ['classic2', 'classic', 9]] as const;
  for (const [name, kind, offset] of fresh) {
    const recorded = join(DATA_DIR, `sessions-${name}.jsonl`);
    const seed = String(Number(values[kind === 'wide' ? 'wide-seed' : 'coined-seed']) + offset);
    const [count, extra] = kind === 'wide' ? ['4000', ['--coined', '1', '--wide', '1']] : ['5000', ['--coined', kind === 'coined' ? '1' : '0']];
    if (!values['skip-record'] || !existsSync(recorded)) {
      run(`record (${name})`, TSX, [join(HERE, 'record.ts'), '--seed', seed, '--terminal', count, '--mcp', '0', '--web', '0', ...extra, '--out', recorded]);
    }
    run(`chats (${name})`, TSX, [join(HERE, 'chats.ts'), '--seed', seed, '--sessions', recorded, '--out', join(DATA_DIR, `chats-${name}.jsonl`)]);
    run(`samples (${name})`, TSX, [join(HERE, 'samples.ts'), '--tokenizer', TOKENIZER_DIR, '--chats', join(DATA_DIR, `chats-${name}.jsonl`), '--out', freshSamples(name)]);
  }
}
const checkpoint = values.checkpoint!;
const modelDir = values.out!;
const trainOn = (samples: string, label: string, out: string, args: string[]) =>
  run(label, PYTHON, ['-m', 'world_model.train', samples, TOKENIZER_DIR, out, '--seed', values.seed!, ...args]);
const train = (label: string, out: string, args: string[]) => trainOn(join(DATA_DIR, 'samples.jsonl'), label, out, args);
if (values.recipe === 'gpu') {
  const stage1 = join(DATA_DIR, 'hf-checkpoint-stage1');
  train('train (stage 1)', stage1, ['--steps', '383', '--tokens-per-batch', '65536', '--lr', '2e-3', '--device', 'cuda']);
  const stage2 = join(DATA_DIR, 'hf-checkpoint-stage2');
  const stage3 = join(DATA_DIR, 'hf-checkpoint-stage3');
  train('train (stage 2)', stage2, ['--init-from', stage1, '--steps', '303', '--tokens-per-batch', '32768', '--lr', '1.5e-3',
    '--mcp-share', '0.35', '--web-share', '0.6', '--seed', String(Number(values.seed) + 1), '--device', 'cuda']);
  train('train (stage 3)', stage3, ['--init-from', stage2, '--steps', '1000', '--tokens-per-batch', '3072', '--lr', '1e-3',
    '--mcp-share', '0.04', '--web-share', '0.1', '--seed', String(Number(values.seed) + 2), '--threads', '1', '--device', 'cpu']);
  const averaged = join(DATA_DIR, 'hf-checkpoint-averaged');
  run('average', PYTHON, ['-m', 'world_model.average_checkpoints', stage2, stage3, '0.7', averaged]);
  const controls = join(DATA_DIR, 'control-contrast-chats.jsonl');
  const controlSamples = join(DATA_DIR, 'control-contrast-samples.jsonl');
  run('control pairs', TSX, [join(HERE, 'control-chats.ts'), '--sessions', sessions, '--contrast', '--out', controls]);
  run('samples (control pairs)', TSX, [join(HERE, 'samples.ts'), '--tokenizer', TOKENIZER_DIR, '--chats', controls, '--out', controlSamples]);
  // Control and contrast pairs per epoch: every terminal session already has one; MCP pairs are
  // ~4,400 tokens (the tool list), so a share of them; web's were the fewest before this stage.
  const stage4 = join(DATA_DIR, 'hf-checkpoint-coined');
  trainOn(coinedSamples, 'train (stage 4)', stage4, ['--init-from', averaged, '--extra-samples', join(DATA_DIR, 'samples.jsonl'),
    '--extra-samples', controlSamples, '--steps', '5000', '--stop-after', '4500', '--tokens-per-batch', '3072', '--lr', '6e-4', '--seed', String(Number(values.seed) + 6),
    '--threads', '2', '--device', 'cpu', '--cpu-bf16', '--share', 'terminal/control=0.4', '--share', 'terminal/contrast=0.4', '--share', 'mcp/session=0.5',
    '--share', 'mcp/control=0.15', '--share', 'mcp/contrast=0.1', '--share', 'web/control=0.5', '--share', 'web/contrast=0.35']);
  // Stage 4's eval still missed disk-full, rate-limited, truncated-result and consent-popup most
  // often: four more pairs of those kinds (and of their neighbours) per MCP and web session, one per terminal one.
  const targeted = join(DATA_DIR, 'control-targeted-chats.jsonl');
  const targetedSamples = join(DATA_DIR, 'control-targeted-samples.jsonl');
  run('control pairs (targeted)', TSX, [join(HERE, 'control-chats.ts'), '--sessions', sessions, '--contrast', '--seed', String(Number(values.seed) + 7), '--tag', '5',
    '--terminal', '1', '--mcp', '4', '--web', '4', '--kinds', TARGETED_KINDS.join(','), '--out', targeted]);
  run('samples (targeted control pairs)', TSX, [join(HERE, 'samples.ts'), '--tokenizer', TOKENIZER_DIR, '--chats', targeted, '--out', targetedSamples]);
  // Stages 5–7: the wide-tool sessions at full share; the data of stages 1–4 replayed at a
  // fraction (--source-share) so the model keeps what it learned there (web sessions stay at
  // one per epoch). Each file's share, in the order coined, classic, control, targeted.
  const onWideSessions = (init: string, schedule: string[], seedOffset: number, fileShares: [string, string, string, string], mcpSessions = '0.6',
    machine = ['--tokens-per-batch', '3072', '--threads', '2', '--device', 'cpu', '--cpu-bf16']) => [
    '--init-from', init, '--extra-samples', coinedSamples, '--extra-samples', join(DATA_DIR, 'samples.jsonl'), '--extra-samples', controlSamples,
    '--extra-samples', targetedSamples, ...schedule, ...machine, '--seed', String(Number(values.seed) + seedOffset),
    '--share', 'terminal/control=0.4', '--share', 'terminal/contrast=0.4',
    '--share', `mcp/session=${mcpSessions}`, '--share', 'mcp/control=0.15', '--share', 'mcp/contrast=0.1', '--share', 'web/control=0.5', '--share', 'web/contrast=0.35',
    '--share', 'web/session=2', '--source-share', `samples-coined.jsonl=${fileShares[0]}`, '--source-share', `samples.jsonl=${fileShares[1]}`,
    '--source-share', `control-contrast-samples.jsonl=${fileShares[2]}`, '--source-share', `control-targeted-samples.jsonl=${fileShares[3]}`];
  const stage5 = join(DATA_DIR, 'hf-checkpoint-stage5w');
  trainOn(wideSamples, 'train (stage 5)', stage5, onWideSessions(stage4, ['--steps', '5500', '--stop-after', '4500', '--lr', '5e-4'], 7, ['0.6', '0.5', '0.5', '0.5']));
  // Stage 5 stopped at a sixth of its peak learning rate. Stage 6 runs a whole schedule down to a
  // tenth, with the coined sessions (names the model can only copy) at full share.
  const stage6 = join(DATA_DIR, 'hf-checkpoint-stage6c');
  trainOn(wideSamples, 'train (stage 6)', stage6, onWideSessions(stage5, ['--steps', '3200', '--lr', '4e-4'], 8, ['1.0', '0.35', '0.4', '0.4']));
  // Stage 6 cost MCP 0.04 of similarity: stage 7 gives MCP sessions a whole share again, at half the learning rate.
  const stage7 = join(DATA_DIR, 'hf-checkpoint-stage7');
  const stage7Mix = (init: string, schedule: string[], seedOffset: number, machine?: string[]) =>
    onWideSessions(init, schedule, seedOffset, ['1.0', '0.35', '0.4', '0.4'], '1.0', machine);
  trainOn(wideSamples, 'train (stage 7)', stage7, stage7Mix(stage6, ['--steps', '1700', '--lr', '2e-4'], 9));
  // Stages 8 and 9 on the GPU, in batches of 64k and 128k tokens: each saw three to four times
  // the tokens of the longest CPU stage (stage 6's 10 M) in 5–6 minutes. Stage 8 is stage 7's
  // mix; stage 9 adds fresh coined and wide-tool sessions (seeds + 1), so its ~2 epochs are not
  // the same sessions over and over.
  // Their step counts are what --minutes fitted on the lent H100 (see the model card).
  const gpu = (tokens: string) => ['--tokens-per-batch', tokens, '--device', 'cuda'];
  const stage8 = join(DATA_DIR, 'hf-checkpoint-stage8');
  trainOn(wideSamples, 'train (stage 8)', stage8, stage7Mix(stage7, ['--steps', '492', '--lr', '1.2e-3'], 19, gpu('65536')));
  const stage9 = join(DATA_DIR, 'hf-checkpoint-stage9');
  trainOn(wideSamples, 'train (stage 9)', stage9, [...stage7Mix(stage8, ['--steps', '305', '--lr', '1e-3'], 21, gpu('131072')),
    '--extra-samples', freshSamples('coined2'), '--extra-samples', freshSamples('wide2')]);
  // Stages 8 and 9 copy a garbled action's repeated fragment until the token budget runs out
  // (stage 7 did not); half and half with stage 7 keeps most of their gains and rarely does.
  const stages7and9 = join(DATA_DIR, 'hf-checkpoint-stage7-9');
  run('average (stages 7 and 9)', PYTHON, ['-m', 'world_model.average_checkpoints', stage7, stage9, '0.5', stages7and9]);
  // Stage 10: more full-attention capacity. The misses left were lookups over the session's
  // history (does a file exist, what does it hold), which only the full-attention layers do
  // exactly. grow.py puts a copy after each of the two (8 -> 10 layers, zero output projections:
  // the same logits), then every layer trains on the GPU in batches of 64k tokens on the four
  // fresh sets (seeds + 2 and + 3) beside stage 7's classic, control and targeted samples.
  // 10a: 242 steps at peak lr 5e-4 from the grown weights; 10b and 10c: 371 steps at 5e-4 and
  // 393 at 3e-4 from 10a (step counts as --minutes fitted them on a lent H200, each beside other
  // runs, whose first 30 steps warmed up as the default 1,500-step schedule would until the count
  // was fitted; the reference linear-attention kernels, since fla refuses Triton < 3.7.1 on Hopper).
  const grown = join(DATA_DIR, 'hf-checkpoint-grown');
  run('grow', PYTHON, ['-m', 'world_model.grow', '--from', stages7and9, '--out', grown]);
  // The mix of the 64k-token GPU stages (10 and 11): stage 7's domain shares, its classic,
  // control and targeted samples replayed as in stage 7, and the stage's own fresh sets (in the
  // order given, as the runs were made) with any shares of its own.
  const gpuMix = (init: string, extraSamples: string[], steps: string, lr: string, seedOffset: number, sourceShares: string[] = []) => [
    '--init-from', init, ...extraSamples.flatMap((file) => ['--extra-samples', file]),
    '--steps', steps, '--lr', lr, ...gpu('65536'), '--seed', String(Number(values.seed) + seedOffset),
    '--share', 'terminal/control=0.4', '--share', 'terminal/contrast=0.4', '--share', 'mcp/session=1.0', '--share', 'mcp/control=0.15',
    '--share', 'mcp/contrast=0.1', '--share', 'web/control=0.5', '--share', 'web/contrast=0.35', '--share', 'web/session=2',
    ...['samples.jsonl=0.35', `${basename(controlSamples)}=0.4`, `${basename(targetedSamples)}=0.4`, ...sourceShares].flatMap((share) => ['--source-share', share])];
  const classicSamples = join(DATA_DIR, 'samples.jsonl');
  const stage10Mix = (init: string, steps: string, lr: string, seedOffset: number) =>
    gpuMix(init, [freshSamples('coined3'), classicSamples, controlSamples, targetedSamples, freshSamples('coined4'), freshSamples('wide4')], steps, lr, seedOffset);
  const stage10a = join(DATA_DIR, 'hf-checkpoint-stage10a');
  trainOn(freshSamples('wide3'), 'train (stage 10a)', stage10a, stage10Mix(grown, '242', '5e-4', 28));
  const stage10b = join(DATA_DIR, 'hf-checkpoint-stage10b');
  trainOn(freshSamples('wide3'), 'train (stage 10b)', stage10b, stage10Mix(stage10a, '371', '5e-4', 36));
  const stage10c = join(DATA_DIR, 'hf-checkpoint-stage10c');
  trainOn(freshSamples('wide3'), 'train (stage 10c)', stage10c, stage10Mix(stage10a, '393', '3e-4', 37));
  // Stage 10's weights: 10b and 10c averaged (two runs from one start; the average scored a
  // little above 10b alone on MCP and the hand-written sessions, the same on the terminal).
  const stage10 = join(DATA_DIR, 'hf-checkpoint-stage10');
  run('average (stages 10b and 10c)', PYTHON, ['-m', 'world_model.average_checkpoints', stage10b, stage10c, '0.5', stage10]);
  // Stage 11: the held-out loss was still falling, and the gap to the training loss said fresh
  // sessions help more than epochs: three runs side by side from stage 10 on four fresh sets
  // (coined5, coined6, wide5, classic2) with stage 10's sets replayed at a quarter, averaged;
  // then three more from that average at a lower rate, averaged again (step counts as --minutes
  // fitted them on a lent H200, four runs sharing it; there the first 30 steps warmed up as the
  // default 1,500-step schedule would, as in stage 10).
  const stage11Mix = (init: string, steps: string, lr: string, seedOffset: number) =>
    gpuMix(init, [...['coined5', 'coined6', 'classic2', 'coined3', 'coined4', 'wide3', 'wide4'].map(freshSamples), classicSamples, controlSamples, targetedSamples],
      steps, lr, seedOffset, ['coined3', 'coined4', 'wide3', 'wide4'].map((name) => `samples-${name}.jsonl=0.25`));
  const averageOfThree = (label: string, [a, b, c]: string[], out: string) => {
    run(`average (${label}, first two)`, PYTHON, ['-m', 'world_model.average_checkpoints', a!, b!, '0.5', `${out}-ab`]);
    run(`average (${label})`, PYTHON, ['-m', 'world_model.average_checkpoints', `${out}-ab`, c!, String(1 / 3), out]);
  };
  const round = (label: string, init: string, runs: [steps: string, seedOffset: number][], lr: string) =>
    runs.map(([steps, seedOffset], i) => {
      const out = join(DATA_DIR, `hf-checkpoint-${label}${'abc'[i]}`);
      trainOn(freshSamples('wide5'), `train (${label}${'abc'[i]})`, out, stage11Mix(init, steps, lr, seedOffset));
      return out;
    });
  const stage11 = join(DATA_DIR, 'hf-checkpoint-stage11');
  averageOfThree('stage 11', round('stage11', stage10, [['375', 46], ['384', 47], ['381', 48]], '3e-4'), stage11);
  // The shipped weights.
  averageOfThree('stage 11, second round', round('stage11-2', stage11, [['211', 56], ['233', 57], ['225', 58]], '2e-4'), checkpoint);
} else {
  train('train', checkpoint, ['--steps', values.steps!, '--tokens-per-batch', values['tokens-per-batch']!, '--mcp-share', '0.1', '--web-share', '0.2',
    '--lr', '2e-3', '--threads', '1', '--device', 'cpu', '--extra-samples', coinedSamples, '--extra-samples', wideSamples]);
}
// fp32 is checked by the converter itself (logits within a bound scaled by their size, greedy
// tokens identical to transformers; exit 1 otherwise) and then through the engine by model:parity.
// int4 skips the converter's check: on worldloom-nano one position of its 1,502-token prompt is a
// router near-tie that onnxruntime's int4 kernel breaks the other way (a 0.62 logit difference there,
// every greedy token still the same), which its exact-weights logit bound cannot tell from an error.
const convertCheck = values.precision === 'fp32' ? [] : ['--no-check'];
run('convert', PYTHON, ['-m', 'qwen35.convert', '--from', checkpoint, '--out', modelDir, '--precision', values.precision!, ...convertCheck]);
// int4 rounds the weights on purpose, so only fp32 is held to token-for-token parity.
if (values.precision === 'fp32') run('parity', TSX, [join(REPO_ROOT, 'native', 'qwen35', 'parity.ts'), '--hf', checkpoint, '--onnx', modelDir, '--tokens', '24']);
if (!values['skip-eval']) run('eval', TSX, [join(HERE, 'eval.ts'), '--model', modelDir]);
