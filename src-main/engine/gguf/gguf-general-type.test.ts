// What a GGUF file is, from the first keys of its header: a model (said, or not said), a LoRA
// adapter, or not a GGUF file at all.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NANO_GGUF, writeLoraAdapter } from '../../testing/lora-fixture';
import { readGgufGeneralType } from './gguf-general-type';

const scratch = mkdtempSync(join(tmpdir(), 'wl-general-type-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('readGgufGeneralType', () => {
  it.skipIf(!existsSync(NANO_GGUF))('calls a model that writes no general.type a model, with its architecture', () => {
    expect(readGgufGeneralType(NANO_GGUF)).toEqual({ type: 'model', architecture: 'qwen35moe' });
  });

  it.skipIf(!existsSync(NANO_GGUF))('reads an adapter as one, with its adapter type and architecture', () => {
    const adapter = writeLoraAdapter(join(scratch, 'lora.gguf')).path;
    expect(readGgufGeneralType(adapter)).toEqual({ type: 'adapter', architecture: 'qwen35moe', adapterType: 'lora' });
  });

  it('gives null for a file that is not GGUF, one cut short, and one that is missing', () => {
    writeFileSync(join(scratch, 'text.gguf'), 'not a gguf file at all, just some text that is long enough');
    writeFileSync(join(scratch, 'short.gguf'), 'GGUF');
    expect(readGgufGeneralType(join(scratch, 'text.gguf'))).toBeNull();
    expect(readGgufGeneralType(join(scratch, 'short.gguf'))).toBeNull();
    expect(readGgufGeneralType(join(scratch, 'missing.gguf'))).toBeNull();
  });

  it('stops at a header that lies about a length, keeping what it read before', () => {
    // GGUF v3, 0 tensors, 2 keys: general.type = "adapter", then a key whose length runs past the file.
    const key = (name: string) => Buffer.concat([u64(name.length), Buffer.from(name)]);
    const file = Buffer.concat([Buffer.from('GGUF'), u32(3), u64(0), u64(2), key('general.type'), u32(8), key('adapter'), u64(1n << 40n)]);
    writeFileSync(join(scratch, 'lying.gguf'), file);
    expect(readGgufGeneralType(join(scratch, 'lying.gguf'))).toEqual({ type: 'adapter' });
  });
});

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}
function u64(n: number | bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
}
