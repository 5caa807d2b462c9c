// Damaged ONNX model folders, made at test time from the tiny tokens-fp32 fixture: a graph that
// is not ONNX, external data shorter than the tensors the graph reads from it, an operator no
// onnxruntime has. Each is opened first in a child process (model-probe.ts); onnxruntime refuses
// them with an error there (no crash), so the app opens them too and says what was found and what
// to do; a good folder still loads afterwards.

import { cpSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../common/engine';
import { TINY_ONNX } from '../../testing/gguf-fixtures';
import { probeInChild } from '../model-probe';
import { OnnxEngine } from './onnx-engine';

let scratch: string;
const savedCacheDir = process.env.WORLDLOOM_CACHE_DIR;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'wl-onnx-hostile-'));
  process.env.WORLDLOOM_CACHE_DIR = join(scratch, 'cache');
});
afterAll(() => {
  if (savedCacheDir === undefined) delete process.env.WORLDLOOM_CACHE_DIR;
  else process.env.WORLDLOOM_CACHE_DIR = savedCacheDir;
  rmSync(scratch, { recursive: true, force: true });
});

/** A copy of the fixture folder with `damage` done to it. */
function damaged(name: string, damage: (folder: string) => void): string {
  const folder = join(scratch, name);
  cpSync(TINY_ONNX, folder, { recursive: true });
  damage(folder);
  return folder;
}

async function refusal(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(EngineError);
  expect((error as EngineError).code).toBe('model-corrupt');
  return error as EngineError;
}

describe('damaged ONNX model folders are refused, opened first in a child process', () => {
  it('a graph that is not ONNX', async () => {
    const folder = damaged('garbage', (f) => writeFileSync(join(f, 'model.onnx'), Buffer.from('this is not a protobuf graph at all'.repeat(20))));
    const error = await refusal(OnnxEngine.load(folder));
    expect(error.message).toMatch(/model\.onnx could not be loaded by onnxruntime \(.*\)\. The graph is not a readable ONNX model .*convert the model again into an empty folder or download it again/);
  }, 60_000);

  it('external data shorter than its tensors', async () => {
    const folder = damaged('short-data', (f) => truncateSync(join(f, 'model.onnx.data'), 1000));
    const error = await refusal(OnnxEngine.load(folder));
    expect(error.message).toMatch(/model\.onnx could not be loaded by onnxruntime \(.*given file_length: 1000 are out of bounds.*\)\. A weights file beside the graph \(its external data\) is shorter than the tensors the graph says it holds: copy or download the folder again/);
  }, 60_000);

  it('an operator onnxruntime does not have', async () => {
    const folder = damaged('unknown-op', (f) => {
      const graph = readFileSync(join(f, 'model.onnx'));
      // NodeProto.op_type (field 4, a string of 7 bytes): every Sigmoid node becomes "Sigmoix".
      const renamed = Buffer.from(graph.toString('latin1').replaceAll('\x22\x07Sigmoid', '\x22\x07Sigmoix'), 'latin1');
      expect(renamed.equals(graph)).toBe(false);
      writeFileSync(join(f, 'model.onnx'), renamed);
    });
    const error = await refusal(OnnxEngine.load(folder));
    expect(error.message).toMatch(/model\.onnx could not be loaded by onnxruntime \(.*Sigmoix.*\)\. The graph uses an operator this onnxruntime does not have/);
  }, 60_000);

  it('a refusal is the same on a second open; a good folder still loads afterwards', async () => {
    const folder = damaged('garbage-again', (f) => writeFileSync(join(f, 'model.onnx'), Buffer.alloc(4096, 7)));
    const first = await refusal(OnnxEngine.load(folder));
    const second = await refusal(OnnxEngine.load(folder));
    expect(second.message).toBe(first.message);
    const engine = await OnnxEngine.load(TINY_ONNX, { intraOpThreads: 1 });
    await engine.dispose();
  }, 60_000);

  it('the probe itself: a good graph comes back ok, a refused one as a refusal, not a crash', async () => {
    expect(await probeInChild('onnx', join(TINY_ONNX, 'model.onnx'), 'model.onnx')).toMatchObject({ ok: true, crashed: false });
    const refused = await probeInChild('onnx', join(damaged('probe-garbage', (f) => writeFileSync(join(f, 'model.onnx'), 'not onnx')), 'model.onnx'), 'model.onnx');
    expect(refused).toMatchObject({ ok: false, crashed: false, message: expect.stringMatching(/protobuf parsing failed/i) });
  }, 60_000);
});
