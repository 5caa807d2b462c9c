// What the engine refuses in a model folder, and what it reads from it, on copies of the
// committed tiny Qwen3.5-MoE chat model: files outside the folder, a configuration that contradicts
// its graph, the model's own sampling defaults, a chat template that never ends.

import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../common/engine';
import { OnnxEngine } from './onnx-engine';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'qwen35', 'tiny-chat');
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A writable copy of the fixture inside a fresh parent folder (so "outside" has somewhere to be). */
function copy(fixture = FIXTURE): { parent: string; folder: string } {
  const parent = mkdtempSync(join(tmpdir(), 'worldloom-folder-'));
  folders.push(parent);
  const folder = join(parent, 'model');
  cpSync(fixture, folder, { recursive: true });
  return { parent, folder };
}

interface GenaiJson {
  model: Record<string, unknown> & { decoder: Record<string, unknown> };
}

function editJson<T>(path: string, edit: (json: T) => void): void {
  const json = JSON.parse(readFileSync(path, 'utf8')) as T;
  edit(json);
  writeFileSync(path, JSON.stringify(json));
}

async function loadError(folder: string): Promise<EngineError> {
  const error = await OnnxEngine.load(folder, { providers: ['cpu'], intraOpThreads: 1 }).then(
    async (engine) => {
      await engine.dispose();
      return null;
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

describe('a model folder keeps to itself', () => {
  it('refuses a decoder filename that climbs out of the folder', async () => {
    const { parent, folder } = copy();
    renameSync(join(folder, 'model.onnx'), join(parent, 'model.onnx'));
    renameSync(join(folder, 'model.onnx.data'), join(parent, 'model.onnx.data'));
    editJson<GenaiJson>(join(folder, 'genai_config.json'), (json) => {
      json.model.decoder.filename = '../model.onnx';
    });
    const error = await loadError(folder);
    expect(error.code).toBe('model-corrupt');
    expect(error.message).toMatch(/"\.\.\/model\.onnx", which points outside the model folder/);
  });

  it('refuses a decoder that is a symlink to a file outside the folder', async () => {
    const { parent, folder } = copy();
    renameSync(join(folder, 'model.onnx'), join(parent, 'elsewhere.onnx'));
    symlinkSync(join(parent, 'elsewhere.onnx'), join(folder, 'model.onnx'));
    const error = await loadError(folder);
    expect(error.message).toMatch(/model\.onnx in .* is a link to .*elsewhere\.onnx, outside the model folder/);
  });
});

describe('weights outside the folder', () => {
  it('refuses external data that is a link to a file outside the folder', async () => {
    const { parent, folder } = copy();
    renameSync(join(folder, 'model.onnx.data'), join(parent, 'weights.data'));
    symlinkSync(join(parent, 'weights.data'), join(folder, 'model.onnx.data'));
    const error = await loadError(folder);
    expect(error.code).toBe('model-corrupt');
    expect(error.message).toMatch(/names weights \(external data\) outside its folder.*escapes model directory/);
    expect(error.message).toMatch(/Put the data file itself in the model folder/);
  });
});

describe('caches the engine cannot carry', () => {
  it('refuses a graph with bfloat16 caches, saying how to build one it can run', async () => {
    const { folder } = copy();
    // A decoder-shaped graph whose key cache is bfloat16 (fixtures/bf16-cache.onnx).
    cpSync(join(import.meta.dirname, 'fixtures', 'bf16-cache.onnx'), join(folder, 'model.onnx'));
    rmSync(join(folder, 'model.onnx.data'));
    const error = await loadError(folder);
    expect(error.code).toBe('model-corrupt');
    expect(error.message).toMatch(/passes bfloat16 tensors in or out.*-p fp16/);
  });
});

describe('a configuration that contradicts its graph is refused, naming both', () => {
  // The Qwen3.5 graph names its cache's head axis symbolically (kv_cache_dim, as the model builder
  // writes it), so the head-size case runs on tiny-llama, whose cache declares 32.
  const TINY_LLAMA = join(import.meta.dirname, 'fixtures', 'tiny-llama');
  const cases: [string, (json: GenaiJson) => void, RegExp, string?][] = [
    ['key/value heads', (json) => (json.model.decoder.num_key_value_heads = 4), /num_key_value_heads is 4 but cache 'past_key_values\.3\.key' has 2 heads/],
    ['head size', (json) => (json.model.decoder.head_size = 16), /head_size is 16 but cache 'past_key_values\.0\.key' has heads of 32/, TINY_LLAMA],
    ['layers', (json) => (json.model.decoder.num_hidden_layers = 6), /num_hidden_layers is 6 but the graph carries caches for 4 layers/],
    ['vocabulary', (json) => (json.model.vocab_size = 600), /vocab_size is 600 but the graph's logits have 768 entries/],
  ];
  for (const [what, edit, message, fixture] of cases) {
    it(what, async () => {
      const { folder } = copy(fixture);
      editJson<GenaiJson>(join(folder, 'genai_config.json'), edit);
      const error = await loadError(folder);
      expect(error.code).toBe('model-corrupt');
      expect(error.message).toMatch(message);
      expect(error.message).toMatch(/convert the model again/);
    });
  }

  it('context longer than config.json allows', async () => {
    const { folder } = copy();
    writeFileSync(join(folder, 'config.json'), JSON.stringify({ text_config: { max_position_embeddings: 1024 } }));
    expect((await loadError(folder)).message).toMatch(/context_length is 4096 but config\.json allows 1024 positions/);
  });

  it('a tokenizer with ids beyond the logits', async () => {
    const { folder } = copy();
    editJson<{ added_tokens: object[] }>(join(folder, 'tokenizer.json'), (json) => {
      json.added_tokens.push({ id: 800, content: '<|extra|>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
    });
    expect((await loadError(folder)).message).toMatch(/tokenizer has token id 800, beyond the 768 logits/);
  });
});

describe('broken weights', () => {
  it('NaN weights fail the request with a clear error instead of producing tokens', async () => {
    const { folder } = copy();
    const data = readFileSync(join(folder, 'model.onnx.data'));
    const nan = Buffer.alloc(data.length);
    for (let i = 0; i + 4 <= nan.length; i += 4) nan.writeFloatLE(Number.NaN, i);
    writeFileSync(join(folder, 'model.onnx.data'), nan);
    const engine = await OnnxEngine.load(folder, { providers: ['cpu'], intraOpThreads: 1 });
    try {
      const tokens: number[] = [];
      const [result] = await engine.generate(
        [{ id: 'n', messages: [{ role: 'user', content: 'ls' }], sampling: { temperature: 0, topK: 0, topP: 1, maxTokens: 4, seed: 0, stop: [] } }],
        (event) => event.tokenId !== undefined && tokens.push(event.tokenId),
      );
      expect(result!.finishReason).toBe('error');
      expect(result!.error).toMatch(/NaN or infinite logits.*Nothing was stored/);
      expect(result!.text).toBe('');
      expect(tokens).toEqual([]);
    } finally {
      await engine.dispose();
    }
  });
});

describe("the model's own sampling", () => {
  it('comes from generation_config.json when the folder has one, else from genai_config.json search', async () => {
    const { folder } = copy();
    rmSync(join(folder, 'generation_config.json'));
    const plain = await OnnxEngine.load(folder, { providers: ['cpu'], intraOpThreads: 1 });
    // Without generation_config.json, the fixture's search section: do_sample false.
    expect(plain.describe().recommendedSampling).toEqual({ temperature: 0 });
    await plain.dispose();
    writeFileSync(
      join(folder, 'generation_config.json'),
      JSON.stringify({ do_sample: true, temperature: 0.6, top_k: 20, top_p: 0.95, repetition_penalty: 1.05, presence_penalty: 1.5, max_new_tokens: 32768, eos_token_id: [2] }),
    );
    const qwen = await OnnxEngine.load(folder, { providers: ['cpu'], intraOpThreads: 1 });
    expect(qwen.describe().recommendedSampling).toEqual({
      temperature: 0.6, topK: 20, topP: 0.95, repetitionPenalty: 1.05, presencePenalty: 1.5, maxTokens: 32768,
    });
    await qwen.dispose();
  });

  it('refuses a generation_config.json with values out of range', async () => {
    const { folder } = copy();
    writeFileSync(join(folder, 'generation_config.json'), JSON.stringify({ do_sample: true, top_p: 3 }));
    expect((await loadError(folder)).message).toMatch(/generation_config\.json has sampling values out of range \(top_p/);
  });
});
