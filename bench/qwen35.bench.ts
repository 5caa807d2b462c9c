// The in-process engine on the tiny Qwen3.5-MoE fixture (src-main/engine/onnx/fixtures/qwen35:
// a checkpoint made by transformers' own classes and its conversion to the model builder's
// layout), all in one run:
// - decode tokens/s against transformers (PyTorch, CPU), greedy, same prompt ids, same thread
//   count, identical tokens; goal ≥ 3×; prefill beside it
// - engine time per decoded token against a bare loop of session.run on the same graph and
//   inputs (the limit for this engine); goal ≤ 1.15×
// - resample ×8 from ≥ 1,500 tokens of history under the fixture's Qwen3.5 template, prefix
//   reuse against none; goal ≥ 4×
// A figure whose runs did not produce identical tokens gets ratio 0, so it shows as missed.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { longHistory, withAction } from '../src-main/testing/engine-bench';
import { OnnxEngine } from '../src-main/engine/onnx/onnx-engine';
import { openBareLoop } from './bare-loop';
import { resampleFigure, type BenchSuite, type Figure } from './bench';
import { BENCH_PYTHON as PYTHON, transformersPeerRuns } from './transformers-peer';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// WORLDLOOM_QWEN35_FIXTURES benches another set laid out the same way (hf/, tokens-fp32/).
const FIXTURES = process.env.WORLDLOOM_QWEN35_FIXTURES ?? join(ROOT, 'src-main', 'engine', 'onnx', 'fixtures', 'qwen35');
const HF = join(FIXTURES, 'hf');
const ONNX = join(FIXTURES, 'tokens-fp32');
const THREADS = 1;
const DECODE_TOKENS = 64;
const ROUNDS = 3;
/** Engine and bare-loop runs are short: more of them, interleaved, for a stable median. */
const BARE_ROUNDS = 15;

interface TimedTokens {
  tokens: number[];
  tokenTimes: number[];
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** Milliseconds per token between the first generated token and the last: decode steps only. */
const msPerToken = (run: TimedTokens): number => (run.tokenTimes.at(-1)! - run.tokenTimes[0]!) / (run.tokenTimes.length - 1);
const same = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((id, i) => id === b[i]);

async function engineRun(engine: OnnxEngine, prompt: number[]): Promise<TimedTokens & { prefillMs: number }> {
  const run: TimedTokens = { tokens: [], tokenTimes: [] };
  const [result] = await engine.generateFromIds(
    [{ id: 'bench', promptIds: prompt, sampling: { temperature: 0, topK: 0, topP: 1, maxTokens: DECODE_TOKENS, seed: 0, stop: [] } }],
    (event) => {
      if (event.tokenId === undefined) return;
      run.tokens.push(event.tokenId);
      run.tokenTimes.push(performance.now());
    },
  );
  if (result!.finishReason === 'error') throw new Error(`engine bench generation failed: ${result!.error}`);
  return { ...run, prefillMs: result!.timings.prefillMs };
}

export const qwen35Suite: BenchSuite = {
  name: 'qwen35',
  async run() {
    if (!existsSync(join(ONNX, 'golden.json')) || !existsSync(join(HF, 'config.json'))) {
      throw new Error(`The Qwen3.5-MoE fixtures are missing under ${FIXTURES}; they are committed with the repository.`);
    }
    if (!existsSync(PYTHON)) throw new Error(`The Python tooling is not set up (${PYTHON}): run npm run python:setup first.`);
    const figures: Figure[] = [];

    // The prompt: the fixture's template applied to a short terminal conversation.
    const probe = await OnnxEngine.load(ONNX, { providers: ['cpu'], intraOpThreads: THREADS });
    const history = await longHistory(probe, 200);
    const prompt = await probe.tokenize(await probe.renderPrompt(withAction(history, 'uptime')));
    await probe.dispose();

    const theirs = transformersPeerRuns(HF, prompt, { tokens: DECODE_TOKENS, threads: THREADS, rounds: ROUNDS });
    // Engine and bare loop interleaved, after a warm-up each: the machine is shared and its load drifts.
    const engine = await OnnxEngine.load(ONNX, { providers: ['cpu'], intraOpThreads: THREADS, prefixReuse: false });
    const loop = await openBareLoop(ONNX, THREADS);
    const ours: Awaited<ReturnType<typeof engineRun>>[] = [];
    const bare: TimedTokens[] = [];
    try {
      await engineRun(engine, prompt);
      await loop.run(prompt, DECODE_TOKENS);
      // Pairs run back to back, in alternating order, so each pair shares the machine's load.
      for (let round = 0; round < BARE_ROUNDS; round++) {
        if (round % 2 === 1) bare.push(await loop.run(prompt, DECODE_TOKENS));
        ours.push(await engineRun(engine, prompt));
        if (round % 2 === 0) bare.push(await loop.run(prompt, ours.at(-1)!.tokens.length));
      }
    } finally {
      await engine.dispose();
      await loop.close();
    }

    const identicalPeer = theirs.every((peer) => same(ours[0]!.tokens, peer.tokens.slice(0, ours[0]!.tokens.length)));
    const oursRate = median(ours.map((run) => 1000 / msPerToken(run)));
    const theirRate = median(theirs.map((run) => run.decodeTokensPerSecond));
    figures.push({
      name: 'Qwen3.5-MoE decode tokens/s vs transformers (PyTorch)',
      value: oursRate,
      unit: 'tok/s',
      ratio: identicalPeer ? oursRate / theirRate : 0,
      goal: 3,
      higherIsBetter: true,
      note:
        `transformers ${theirRate.toFixed(0)} tok/s; ${ours[0]!.tokens.length} greedy tokens after a ${prompt.length}-token prompt, ` +
        `${THREADS} thread each, medians of ${BARE_ROUNDS} and ${ROUNDS} runs; ` + (identicalPeer ? 'identical token ids' : 'TOKEN IDS DIFFER'),
    });
    const oursPrefill = median(ours.map((run) => run.prefillMs));
    const theirPrefill = median(theirs.map((run) => run.prefillMs));
    figures.push({
      name: `Qwen3.5-MoE prefill ms vs transformers (${prompt.length}-token prompt)`,
      value: oursPrefill,
      unit: 'ms',
      ratio: oursPrefill / theirPrefill,
      note: `transformers ${theirPrefill.toFixed(1)} ms to the first token; for reference, no goal`,
    });

    const identicalBare = ours.every((run, i) => same(run.tokens, bare[i]!.tokens.slice(0, run.tokens.length)));
    const oursMs = median(ours.map(msPerToken));
    const bareMs = median(bare.map(msPerToken));
    const pairRatio = median(ours.map((run, i) => msPerToken(run) / msPerToken(bare[i]!)));
    // Load from other processes only ever adds time: the fastest of many runs is each loop's own cost.
    const fastest = (runs: TimedTokens[]): number => Math.min(...runs.map(msPerToken));
    figures.push({
      name: 'Qwen3.5-MoE engine ms per decoded token vs bare session.run loop',
      value: fastest(ours),
      unit: 'ms',
      ratio: identicalBare ? fastest(ours) / fastest(bare) : 0,
      goal: 1.15,
      note:
        `fastest of ${BARE_ROUNDS} runs each, alternating; bare loop ${fastest(bare).toFixed(3)} ms per token on the same session options ` +
        `(medians ${oursMs.toFixed(3)} vs ${bareMs.toFixed(3)} ms, median ratio of back-to-back pairs ${pairRatio.toFixed(2)}); ` +
        (identicalBare ? 'identical token ids' : 'TOKEN IDS DIFFER'),
    });

    figures.push(await resampleFigure(ONNX, 'Qwen3.5-MoE ', ROUNDS));
    return figures;
  },
};
