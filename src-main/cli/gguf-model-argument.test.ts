// `--model` naming a GGUF file: by its extension (any part of a split model), or by its magic
// for a file named by digest (Ollama's blobs), goes to the GGUF engine with the device choice.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { modelSpecFromArgument } from './model-argument';

const scratch = mkdtempSync(join(tmpdir(), 'worldloom-gguf-arg-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('--model FILE.gguf', () => {
  it('loads a .gguf file, a split part included, on the GGUF engine', () => {
    expect(modelSpecFromArgument('models/q.gguf', { device: 'cuda' })).toEqual({ kind: 'gguf', path: join(process.cwd(), 'models/q.gguf'), device: 'cuda' });
    expect(modelSpecFromArgument('m/Q4_K_M-00001-of-00003.GGUF').kind).toBe('gguf');
  });

  it('passes --threads to an in-process model and refuses it for a server', () => {
    expect(modelSpecFromArgument('q.gguf', { threads: 3 })).toEqual({ kind: 'gguf', path: join(process.cwd(), 'q.gguf'), threads: 3 });
    expect(modelSpecFromArgument('folder', { device: 'cpu', threads: 2 })).toEqual({ kind: 'onnx', path: join(process.cwd(), 'folder'), device: 'cpu', threads: 2 });
    expect(() => modelSpecFromArgument('http://127.0.0.1:8000/v1', { threads: 2 })).toThrow(/--threads .* is a server\. Leave --threads out/);
  });

  it('recognises an Ollama blob by its GGUF magic, and leaves other files to the ONNX engine', () => {
    const blob = join(scratch, 'sha256-0a1b2c');
    writeFileSync(blob, Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(20)]));
    expect(modelSpecFromArgument(blob)).toEqual({ kind: 'gguf', path: blob });
    const other = join(scratch, 'sha256-license');
    writeFileSync(other, 'Apache License');
    expect(modelSpecFromArgument(other).kind).toBe('onnx');
  });
});
