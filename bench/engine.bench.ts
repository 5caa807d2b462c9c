// The ONNX engine on the tiny Llama (frozen: src-main/engine/onnx/fixtures/tiny-llama/README.md), a folder that
// @huggingface/transformers loads too, so both run the same graph on the same onnxruntime:
// - decode tokens/s against transformers.js, greedy, same prompt, identical token ids; goal ≥ 1.5×
// - resample ×8 from ≥ 1,500 tokens of history, prefix reuse against none; goal ≥ 4×
// - prefill tokens/s against transformers.js on a ≥ 1,500-token prompt
// - peak RSS with the model loaded, each engine in a fresh process
// A figure whose runs did not produce identical tokens gets ratio 0, so it shows as missed.

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { ChatMessage, SamplingParams } from '../src-main/common/engine';
import { longHistory, withAction } from '../src-main/testing/engine-bench';
import { ChatTokenizer } from '../src-main/engine/onnx/chat-tokenizer';
import { QUIET_THREAD_POOL } from '../src-main/engine/onnx/execution-providers';
import { OnnxEngine } from '../src-main/engine/onnx/onnx-engine';
import { TransformersPeer, type PeerRun } from '../src-main/testing/transformers-reference';
import { median, resampleFigure, type BenchSuite, type Figure } from './bench';

const FOLDER = fileURLToPath(new URL('../src-main/engine/onnx/fixtures/tiny-llama', import.meta.url));
const HISTORY_TOKENS = 1500;
const DECODE_TOKENS = 128;
const ROUNDS = 3;
const MiB = 1024 * 1024;

const SHORT_PROMPT: ChatMessage[] = [
  { role: 'system', content: 'You are a simulated Linux terminal on an Ubuntu server. Predict exactly what each command prints.' },
  { role: 'user', content: '## Turn 1\n**Action:** ls -la /home/user && cat /home/user/project/README.md' },
];

const greedy = (maxTokens: number): SamplingParams => ({ temperature: 0, topK: 0, topP: 1, maxTokens, seed: 0, stop: [] });

async function engineRun(engine: OnnxEngine, messages: ChatMessage[], maxTokens: number): Promise<PeerRun & { prefillMs: number }> {
  const tokens: number[] = [];
  const tokenTimes: number[] = [];
  const startedAt = performance.now();
  const [result] = await engine.generate([{ id: 'bench', messages, sampling: greedy(maxTokens) }], (event) => {
    if (event.tokenId === undefined) return;
    tokens.push(event.tokenId);
    tokenTimes.push(performance.now());
  });
  if (result!.finishReason === 'error') throw new Error(`engine bench generation failed: ${result!.error}`);
  return { tokens, tokenTimes, startedAt, prefillMs: result!.timings.prefillMs };
}

/** Tokens per second between the first generated token and the last: decode steps only. */
function decodeRate(run: PeerRun): number {
  const n = run.tokenTimes.length;
  return n < 2 ? 0 : ((n - 1) / (run.tokenTimes[n - 1]! - run.tokenTimes[0]!)) * 1000;
}

function firstDifference(a: readonly number[], b: readonly number[]): number | null {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return i;
  return null;
}

function sameTokensNote(ours: readonly number[], theirs: readonly number[]): string {
  const at = firstDifference(ours, theirs);
  return at === null ? `identical token ids (${ours.length})` : `TOKEN IDS DIFFER from position ${at}`;
}

async function peakRss(which: 'worldloom' | 'transformers'): Promise<number> {
  const script = fileURLToPath(new URL('./engine-memory.ts', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, which, FOLDER, String(HISTORY_TOKENS)], {
    cwd: fileURLToPath(new URL('..', import.meta.url)), // where `--import tsx` resolves
  });
  return (JSON.parse(stdout.trim().split('\n').pop()!) as { peakRssBytes: number }).peakRssBytes;
}

export const engineSuite: BenchSuite = {
  name: 'engine',
  async run() {
    const figures: Figure[] = [];
    // Reuse off: every round computes its prompt, so prefill is measured each time.
    const engine = await OnnxEngine.load(FOLDER, { providers: ['cpu'], prefixReuse: false });
    const peer = await TransformersPeer.load(FOLDER);
    // For reference: transformers.js with the engine's thread settings, so what is left is the generation loop.
    const peerQuiet = await TransformersPeer.load(FOLDER, { sessionOptions: { ...QUIET_THREAD_POOL } });
    try {
      const promptTokens = peer.chatTokens(SHORT_PROMPT);
      const longMessages = withAction(await longHistory(engine, HISTORY_TOKENS), 'uptime');
      const longTokens = peer.chatTokens(longMessages);
      // Warm-up: first runs allocate and pick kernels.
      await engineRun(engine, SHORT_PROMPT, 8);
      await peer.greedy(promptTokens, 8);
      await peerQuiet.greedy(promptTokens, 8);

      const ours = { decode: [] as number[], prefill: [] as number[], tokens: [] as number[][] };
      const theirs = { decode: [] as number[], prefill: [] as number[], tokens: [] as number[][] };
      const quiet = { decode: [] as number[], tokens: [] as number[][] };
      // Interleaved rounds, medians: the machine is shared and its load drifts.
      for (let round = 0; round < ROUNDS; round++) {
        const a = await engineRun(engine, SHORT_PROMPT, DECODE_TOKENS);
        ours.decode.push(decodeRate(a));
        ours.tokens.push(a.tokens);
        const b = await peer.greedy(promptTokens, DECODE_TOKENS);
        theirs.decode.push(decodeRate(b));
        theirs.tokens.push(b.tokens);
        const q = await peerQuiet.greedy(promptTokens, DECODE_TOKENS);
        quiet.decode.push(decodeRate(q));
        quiet.tokens.push(q.tokens);
        const c = await engineRun(engine, longMessages, 1);
        ours.prefill.push((longTokens.length / c.prefillMs) * 1000);
        const d = await peer.greedy(longTokens, 1);
        theirs.prefill.push((longTokens.length / (d.tokenTimes[0]! - d.startedAt)) * 1000);
      }
      // The engine builds its prompts with this tokenizer and template; transformers.js with its own.
      const worldloomTokenizer = ChatTokenizer.load(join(FOLDER, 'tokenizer.json'), join(FOLDER, 'tokenizer_config.json'));
      const samePrompt = [SHORT_PROMPT, longMessages].every(
        (messages) => firstDifference(worldloomTokenizer.encodeChat(messages).tokens, peer.chatTokens(messages)) === null,
      );
      const mismatch = ours.tokens.some(
        (run, i) => firstDifference(run, theirs.tokens[i]!) !== null || firstDifference(run, quiet.tokens[i]!) !== null,
      );
      const decodeOurs = median(ours.decode);
      const decodeTheirs = median(theirs.decode);
      figures.push({
        name: 'decode tokens/s vs transformers.js (greedy)',
        value: decodeOurs,
        unit: 'tok/s',
        ratio: mismatch || !samePrompt ? 0 : decodeOurs / decodeTheirs,
        goal: 1.5,
        higherIsBetter: true,
        note:
          `transformers.js ${decodeTheirs.toFixed(0)} tok/s; ${DECODE_TOKENS} tokens after a ${promptTokens.length}-token prompt, ` +
          `median of ${ROUNDS}; ${sameTokensNote(ours.tokens[0]!, theirs.tokens[0]!)}` +
          (samePrompt ? '' : '; PROMPT TOKENS DIFFER') +
          '; each engine with its own onnxruntime session settings (Worldloom: no spinning worker threads)',
      });
      const decodeQuiet = median(quiet.decode);
      figures.push({
        name: 'decode tokens/s vs transformers.js, same thread settings',
        value: decodeOurs,
        unit: 'tok/s',
        ratio: mismatch || !samePrompt ? 0 : decodeOurs / decodeQuiet,
        higherIsBetter: true,
        note: `transformers.js ${decodeQuiet.toFixed(0)} tok/s with the engine's onnxruntime thread settings; for reference, no goal`,
      });
      const prefillOurs = median(ours.prefill);
      const prefillTheirs = median(theirs.prefill);
      figures.push({
        name: `prefill tokens/s vs transformers.js (${longTokens.length}-token prompt)`,
        value: prefillOurs,
        unit: 'tok/s',
        ratio: prefillOurs / prefillTheirs,
        goal: 1,
        higherIsBetter: true,
        note: `transformers.js ${prefillTheirs.toFixed(0)} tok/s (one pass; Worldloom in 512-token chunks), median of ${ROUNDS}`,
      });
    } finally {
      await engine.dispose();
      await peer.dispose();
      await peerQuiet.dispose();
    }

    // The run with the median speedup of three: each run is a few seconds, and load on a shared machine drifts.
    figures.push(await resampleFigure(FOLDER, '', ROUNDS));

    const rssOurs = await peakRss('worldloom');
    const rssTheirs = await peakRss('transformers');
    figures.push({
      name: 'peak RSS, model loaded, 32 tokens after 1,500+ of history',
      value: rssOurs / MiB,
      unit: 'MiB',
      ratio: rssOurs / rssTheirs,
      goal: 1,
      note: `transformers.js ${(rssTheirs / MiB).toFixed(0)} MiB; each engine alone in a fresh process`,
    });
    return figures;
  },
};
