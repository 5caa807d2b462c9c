// The checks a GGUF file passes before llama.cpp loads it, and llama.cpp's own refusals turned
// into errors that say what to do: real files (hand-written headers, the converted fixture cut
// short or renamed), real llama.cpp.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../common/engine';
import { ggufFixtureUnavailable, tinyGguf, writeGgufHeader } from '../../testing/gguf-fixtures';
import { GgufEngine } from './gguf-engine';
import { ggufParts, readGgufModel } from './gguf-file';

const TEMPLATE = "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}";
let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'worldloom-gguf-file-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const refusal = async (promise: Promise<unknown>): Promise<EngineError> => {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
};

describe('GGUF header checks', () => {
  it('names every part of a split model from any one of them', () => {
    expect(ggufParts('/m/Qwen-Q4_K_M-00002-of-00003.gguf')).toEqual([
      '/m/Qwen-Q4_K_M-00001-of-00003.gguf', '/m/Qwen-Q4_K_M-00002-of-00003.gguf', '/m/Qwen-Q4_K_M-00003-of-00003.gguf',
    ]);
    expect(ggufParts('/m/model.gguf')).toEqual(['/m/model.gguf']);
  });

  it('refuses a split model with a part missing, naming it', async () => {
    writeGgufHeader(join(scratch, 'split-00001-of-00002.gguf'), { 'general.architecture': 'qwen35moe', 'split.count': 2 });
    const error = await refusal(readGgufModel(join(scratch, 'split-00001-of-00002.gguf')));
    expect(error.code).toBe('model-missing');
    expect(error.message).toMatch(/split-00002-of-00002\.gguf is missing/);
  });

  it('refuses a vision projector (mmproj) and an encoder with what to open instead', async () => {
    writeGgufHeader(join(scratch, 'mmproj-model-f16.gguf'), { 'general.architecture': 'clip' });
    expect((await refusal(readGgufModel(join(scratch, 'mmproj-model-f16.gguf')))).message).toMatch(/projector.*open the language model/);
    writeGgufHeader(join(scratch, 'embed.gguf'), { 'general.architecture': 'bert', 'tokenizer.chat_template': TEMPLATE });
    expect((await refusal(readGgufModel(join(scratch, 'embed.gguf')))).message).toMatch(/encoder/);
  });

  it('refuses a model without a chat template', async () => {
    writeGgufHeader(join(scratch, 'no-template.gguf'), { 'general.architecture': 'qwen35moe', 'qwen35moe.context_length': 4096 });
    const error = await refusal(readGgufModel(join(scratch, 'no-template.gguf')));
    expect(error.code).toBe('model-corrupt');
    expect(error.message).toMatch(/no chat template/);
  });

  it('refuses a LoRA adapter opened as the model, saying to pass it with --adapter', async () => {
    writeGgufHeader(join(scratch, 'tuned-lora.gguf'), { 'general.architecture': 'qwen35moe', 'general.type': 'adapter', 'adapter.type': 'lora' });
    const error = await refusal(readGgufModel(join(scratch, 'tuned-lora.gguf')));
    expect(error.code).toBe('model-corrupt');
    expect(error.message).toMatch(/tuned-lora\.gguf is a LoRA adapter \(general\.type = adapter, adapter\.type = lora\) for the 'qwen35moe'/);
    expect(error.message).toMatch(/pass it with --adapter .* over the base model/);
    expect(error.message).not.toMatch(/chat template/);
  });

  it('refuses what is not a GGUF file, and a missing file', async () => {
    writeFileSync(join(scratch, 'text.gguf'), 'not a model');
    expect((await refusal(readGgufModel(join(scratch, 'text.gguf')))).message).toMatch(/not a readable GGUF file/);
    expect((await refusal(readGgufModel(join(scratch, 'absent.gguf')))).code).toBe('model-missing');
  });
});

describe.skipIf(ggufFixtureUnavailable())('GGUF files llama.cpp must refuse (the converted fixture, damaged)', () => {
  let file: string;
  beforeAll(() => {
    file = tinyGguf('f32');
  }, 600_000);

  it('refuses a file cut short (an interrupted download) before loading it', async () => {
    const bytes = readFileSync(file);
    writeFileSync(join(scratch, 'cut.gguf'), bytes.subarray(0, Math.floor(bytes.length / 2)));
    const error = await refusal(readGgufModel(join(scratch, 'cut.gguf')));
    expect(error.message).toMatch(/cut\.gguf is truncated.*download the file again/);
    // Cut inside the last tensor: its start is in the file, its end is not (a short read, said with the sizes).
    writeFileSync(join(scratch, 'tail.gguf'), bytes.subarray(0, bytes.length - 64));
    const late = await refusal(GgufEngine.load(join(scratch, 'tail.gguf'), { device: 'cpu', sequences: 1 }));
    expect(late.code).toBe('model-corrupt');
    expect(late.message).toMatch(new RegExp(`tail\\.gguf is truncated: its tensor '.*' .* ends at byte ${bytes.length}, but the file is ${bytes.length - 64} bytes.*download the file again`));
  });

  it('refuses a context shorter than a step needs', async () => {
    const error = await refusal(GgufEngine.load(file, { device: 'cpu', sequences: 1, contextLength: 256 }));
    expect(error.code).toBe('context-overflow');
    expect(error.message).toMatch(/256 tokens of context as asked/);
  });

  it('refuses an architecture this llama.cpp does not know', async () => {
    // The fixture with its architecture renamed: every other key moves with it, so only the name is wrong.
    const bytes = readFileSync(file);
    const renamed = Buffer.from(bytes.toString('latin1').replaceAll('qwen35moe', 'qwen99moe'), 'latin1');
    writeFileSync(join(scratch, 'unknown-arch.gguf'), renamed);
    const error = await refusal(GgufEngine.load(join(scratch, 'unknown-arch.gguf'), { device: 'cpu', sequences: 1 }));
    expect(error.message).toMatch(/the architecture 'qwen99moe' \(general\.architecture\) is not one Worldloom runs \(it runs qwen35moe, qwen35, and through its llama\.cpp \d+ more: llama/);
    expect(error.message).not.toMatch(/damaged|too large/);
  });
});
