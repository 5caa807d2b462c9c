// The embedded default model (resources/models/worldloom-nano, a tiny Qwen3.5-MoE) on the
// ONNX engine: load time, prefill and decode tokens/s, and resampling ×8 with prefix reuse
// vs none. Each figure is set against a limit that keeps the studio interactive on a laptop
// CPU. WORLDLOOM_NANO_DIR measures another conversion of it (e.g. int4 vs fp32) the same way.
import { fileURLToPath } from 'node:url';
import { benchEngine } from '../src-main/testing/engine-bench';
import { OnnxEngine } from '../src-main/engine/onnx/onnx-engine';
import type { BenchSuite } from './bench';

const FOLDER = process.env.WORLDLOOM_NANO_DIR ?? fileURLToPath(new URL('../resources/models/worldloom-nano', import.meta.url));
const LOAD_LIMIT_MS = 2000;
const DECODE_FLOOR = 50;
const PREFILL_FLOOR = 500;

export const nanoSuite: BenchSuite = {
  name: 'nano',
  async run() {
    const started = performance.now();
    const engine = await OnnxEngine.load(FOLDER, { providers: ['cpu'] });
    const loadMs = performance.now() - started;
    await engine.dispose();
    const r = await benchEngine(FOLDER, { providers: ['cpu'], historyTokens: 1500, samples: 8, maxTokens: 32 });
    return [
      { name: 'worldloom-nano: load', value: loadMs, unit: 'ms', ratio: loadMs / LOAD_LIMIT_MS, goal: 1, note: `limit ${LOAD_LIMIT_MS} ms` },
      {
        name: 'worldloom-nano: prefill',
        value: r.prefill.tokensPerSecond,
        unit: 'tok/s',
        ratio: r.prefill.tokensPerSecond / PREFILL_FLOOR,
        goal: 1,
        higherIsBetter: true,
        note: `floor ${PREFILL_FLOOR} tok/s, ${r.prefill.tokens}-token prompt`,
      },
      {
        name: 'worldloom-nano: decode',
        value: r.decode.tokensPerSecond,
        unit: 'tok/s',
        ratio: r.decode.tokensPerSecond / DECODE_FLOOR,
        goal: 1,
        higherIsBetter: true,
        note: `floor ${DECODE_FLOOR} tok/s`,
      },
      {
        name: `worldloom-nano: resample ×${r.resample.samples}, reuse vs none`,
        value: r.resample.reuseMs,
        unit: 'ms',
        // Reuse that changes the tokens is a failure, not a speedup.
        ratio: r.resample.identical ? r.resample.speedup : 0,
        goal: 4,
        higherIsBetter: true,
        note: r.resample.identical ? 'identical tokens' : 'TOKENS DIFFER',
      },
    ];
  },
};
