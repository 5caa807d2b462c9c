// A failed llama.cpp load becomes an error that names what llama.cpp printed, with the advice
// that fits it: "does not fit in memory" only after a failed allocation (with its size), "damaged
// or cut short" only after a short read, neither for a file llama.cpp refuses for its content.
// The log lines are the ones this llama.cpp prints (src/llama-model.cpp, ggml-backend.cpp, gguf.cpp).

import { describe, expect, it } from 'vitest';
import { loadRefusal } from './model-load';

const MODEL = { path: '/m/q.gguf', name: 'q', architecture: 'qwen35moe', bytes: 21_000_000_000 };
const failed = (lines: string[]) => loadRefusal(MODEL, 'Failed to load model', lines).message;

describe('llama.cpp load refusals', () => {
  it('a failed allocation: does not fit, with the size that failed', () => {
    const message = failed([
      'ggml_backend_cpu_buffer_type_alloc_buffer: failed to allocate buffer of size 20971520000',
      'llama_model_load: error loading model: unable to allocate CPU buffer',
    ]);
    expect(message).toBe(
      'llama.cpp could not load q (qwen35moe, 21000000000 bytes): unable to allocate CPU buffer. The model does not fit in this ' +
        "machine's memory (an allocation of 20971520000 bytes failed, it is 21000000000 bytes on disk): use a smaller quantisation (Q4_K_M) or free memory.",
    );
  });

  it('a short read: damaged or cut short', () => {
    const message = failed(['gguf_init_from_reader: failed to read tensor data', 'llama_model_load: error loading model: llama_model_loader: failed to load model from /m/q.gguf']);
    expect(message).toMatch(/failed to read tensor data\. The file is damaged or cut short \(an interrupted download\): download it again\.$/);
  });

  it('a tensor of the wrong shape: the cause, and neither damage nor memory', () => {
    const message = failed(["llama_model_load: error loading model: check_tensor_dims: tensor 'blk.0.attn_qkv.weight' has wrong shape; expected     64,     64, got     64,    128,      1,      1"]);
    expect(message).toMatch(/: check_tensor_dims: tensor 'blk\.0\.attn_qkv\.weight' has wrong shape; expected 64, 64, got 64, 128, 1, 1\. Its metadata and its tensors disagree/);
    expect(message).not.toMatch(/damaged|too large|memory/);
  });

  it('an architecture llama.cpp does not run: named', () => {
    const message = failed(["llama_model_load: error loading model: error loading model architecture: unknown model architecture: 'qwen99moe'"]);
    expect(message).toMatch(/unknown model architecture: 'qwen99moe'\. This llama\.cpp build does not run the 'qwen35moe' architecture/);
  });

  it('nothing printed: what node-llama-cpp said, without guessing damage or memory', () => {
    const message = failed([]);
    expect(message).toMatch(/^llama\.cpp could not load q \(qwen35moe, 21000000000 bytes\): Failed to load model\. Convert it again or download another copy/);
    expect(message).not.toMatch(/damaged|too large|memory/);
  });
});
