// node native/qwen35/gguf_greedy.mjs --gguf FILE.gguf --prompt-ids IDS.json [--tokens N] [--kv f32|f16] [--flash] [--threads N] [--lora ADAPTER.gguf]
// Greedy tokens of a GGUF through node-llama-cpp on the CPU, for the converter's own test
// (test_gguf.py, and with --lora a LoRA adapter over it: native/lora) against transformers: prints {"cases":[{"promptIds":[…],"engine":[…]}]}.
// The F32 key/value cache with flash attention off is the default because llama.cpp's default
// F16 cache moves logits by ~1e-3, enough to flip a near-tie against transformers' fp32 run.
// NODE_LLAMA_CPP may name the package's entry file when it is installed outside this project.
// Exit status 2 when it cannot run.

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';

function fail(message) {
  process.stderr.write(`gguf_greedy: ${message}\n`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    gguf: { type: 'string' },
    'prompt-ids': { type: 'string' },
    tokens: { type: 'string', default: '32' },
    kv: { type: 'string', default: 'f32' },
    flash: { type: 'boolean', default: false },
    threads: { type: 'string', default: '1' },
    lora: { type: 'string' },
  },
});
if (!values.gguf || !values['prompt-ids']) fail('pass --gguf FILE.gguf and --prompt-ids FILE (a JSON array of token-id arrays)');
const tokens = Number(values.tokens);
if (!Number.isInteger(tokens) || tokens < 1) fail('--tokens must be a positive integer');
if (!['f32', 'f16'].includes(values.kv)) fail('--kv must be f32 or f16');
const threads = Number(values.threads);
if (!Number.isInteger(threads) || threads < 1) fail('--threads must be a positive integer');
const prompts = JSON.parse(readFileSync(values['prompt-ids'], 'utf8'));
if (!Array.isArray(prompts) || !prompts.every((p) => Array.isArray(p) && p.length > 0 && p.every(Number.isInteger))) {
  fail('--prompt-ids must hold a JSON array of non-empty arrays of token ids');
}

const entry = process.env.NODE_LLAMA_CPP ? pathToFileURL(process.env.NODE_LLAMA_CPP).href : 'node-llama-cpp';
let nlc;
try {
  nlc = await import(entry);
} catch (error) {
  fail(`node-llama-cpp is not installed (${error.message}); npm install it, or set NODE_LLAMA_CPP to its dist/index.js`);
}

const llama = await nlc.getLlama({ gpu: false, build: 'never', logLevel: nlc.LlamaLogLevel.error });
const model = await llama.loadModel({ modelPath: values.gguf, gpuLayers: 0 });
const longest = Math.max(...prompts.map((p) => p.length));
const kvType = values.kv.toUpperCase();
const cases = [];
for (const prompt of prompts) {
  // One context per prompt: every case starts from an empty cache, as transformers' runs do.
  const context = await model.createContext({
    contextSize: Math.max(256, longest + tokens + 8),
    sequences: 1,
    // One thread by default: the result does not depend on it, and a test shares the CPU.
    threads,
    flashAttention: values.flash,
    experimentalKvCacheKeyType: kvType,
    experimentalKvCacheValueType: kvType,
    ...(values.lora ? { lora: values.lora } : {}),
  });
  const sequence = context.getSequence();
  const produced = [];
  for await (const token of sequence.evaluate(prompt, { temperature: 0, yieldEogToken: true })) {
    produced.push(token);
    // transformers stops at its end tokens; stop there too, with the token included as it is.
    if (produced.length >= tokens || model.isEogToken(token)) break;
  }
  cases.push({ promptIds: prompt, engine: produced });
  await context.dispose();
}
await model.dispose();
await llama.dispose();
process.stdout.write(`${JSON.stringify({ cases })}\n`);
