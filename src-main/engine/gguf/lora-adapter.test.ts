// A LoRA adapter's header is checked before llama.cpp sees it: a model file, or an adapter of
// another architecture, is refused with what it is. (An adapter that runs, trained with TRL and
// converted, is native/lora/test_lora.py's.)
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adapterRefusal, readLoraAdapter } from './lora-adapter';

const NANO = join(__dirname, '..', '..', '..', 'resources', 'models', 'worldloom-nano', 'worldloom-nano.gguf');
const scratch = mkdtempSync(join(tmpdir(), 'wl-lora-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('readLoraAdapter', () => {
  it('refuses a model file given as an adapter, saying what it is and what to pass', async () => {
    const model = join(scratch, 'model.gguf');
    copyFileSync(NANO, model);
    await expect(readLoraAdapter(model, { name: 'nano', architecture: 'qwen35moe' })).rejects.toThrow(
      /model\.gguf is a model file, not an adapter; --adapter takes a GGUF LoRA adapter .*qwen35\.lora_convert/,
    );
  });

  it('refuses a missing file by its path', async () => {
    await expect(readLoraAdapter(join(scratch, 'none.gguf'), { name: 'nano', architecture: 'qwen35moe' })).rejects.toThrow(/LoRA adapter file missing: .*none\.gguf/);
  });

  it('names the base model an adapter of other sizes does not fit, from llama.cpp\'s own message', () => {
    const adapter = { path: '/a/tuned.gguf', name: 'tuned', architecture: 'qwen35moe', alpha: 8, weights: 3, identity: 'lora:x' };
    const error = adapterRefusal(adapter, 'nano', 'Failed to initialize LoRA adapter', [
      "llama_adapter_lora_init_impl: failed to apply lora adapter: tensor 'blk.0.attn_q.weight' has incorrect shape (hint: maybe wrong base model?)",
    ]);
    expect(error.message).toMatch(/tuned\.gguf does not fit nano: llama\.cpp says tensor 'blk\.0\.attn_q\.weight' has incorrect shape.*open it over the base model it was trained on/);
  });
});
