// Run by engine.bench.ts in a fresh process, so peak RSS belongs to one engine alone:
//   tsx bench/engine-memory.ts worldloom|transformers MODEL_FOLDER HISTORY_TOKENS
// Loads the model with that engine, generates 32 greedy tokens after a long history, and
// prints {"peakRssBytes", "startRssBytes"} as one JSON line.

import { join } from 'node:path';
import { longHistory, withAction } from '../src-main/testing/engine-bench';
import { ChatTokenizer } from '../src-main/engine/onnx/chat-tokenizer';

const [which, folder, historyTokens] = process.argv.slice(2);
if ((which !== 'worldloom' && which !== 'transformers') || !folder) {
  throw new Error('usage: engine-memory.ts worldloom|transformers MODEL_FOLDER HISTORY_TOKENS');
}
const startRssBytes = process.memoryUsage().rss;
// The history is sized with the tokenizer alone, so no model is loaded before the measured one.
const tokenizer = ChatTokenizer.load(join(folder, 'tokenizer.json'), join(folder, 'tokenizer_config.json'));
const history = await longHistory({ tokenize: async (text) => tokenizer.encode(text) }, Number(historyTokens ?? 1500));
const messages = withAction(history, 'df -h');
if (which === 'worldloom') {
  // Each engine's modules are imported only in its own process.
  const { OnnxEngine } = await import('../src-main/engine/onnx/onnx-engine');
  const engine = await OnnxEngine.load(folder, { providers: ['cpu'] });
  await engine.generate([{ id: 'memory', messages, sampling: { temperature: 0, topK: 0, topP: 1, maxTokens: 32, seed: 0, stop: [] } }], () => {});
  await engine.dispose();
} else {
  const { TransformersPeer } = await import('../src-main/testing/transformers-reference');
  const peer = await TransformersPeer.load(folder);
  await peer.greedy(peer.chatTokens(messages), 32);
  await peer.dispose();
}
process.stdout.write(JSON.stringify({ peakRssBytes: process.resourceUsage().maxRSS * 1024, startRssBytes }) + '\n');
