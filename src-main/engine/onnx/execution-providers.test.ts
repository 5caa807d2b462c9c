// The device choice mapped onto onnxruntime's execution providers, with real sessions of the
// tiny test decoder: what auto tries and in which order, why it passes a provider over (the
// reason the model panel shows), and that a device named by the user is never quietly
// replaced by the CPU. The adapter probe's own reading of the machine is gpu-adapter.test.ts.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EngineError } from '../../common/engine';
import { probeGpuAdapter, type GpuAdapterProbe } from '../gpu-adapter';
import { defaultProviders, openSession, providerPlan } from './execution-providers';

const MODEL = join(import.meta.dirname, 'fixtures', 'qwen35', 'tiny-chat', 'model.onnx');
const adapter = (probe: GpuAdapterProbe) => () => probe;
const LLVMPIPE: GpuAdapterProbe = { verdict: 'software', name: 'llvmpipe', detail: 'no GPU found; only libvulkan_lvp.so' };
const NOTHING: GpuAdapterProbe = { verdict: 'none', name: 'none', detail: 'no Vulkan driver installed' };

describe('the default order', () => {
  it('tries CUDA, then WebGPU, then the CPU on Linux and Windows, WebGPU then the CPU on macOS', () => {
    expect(defaultProviders('linux')).toEqual(['cuda', 'webgpu', 'cpu']);
    expect(defaultProviders('win32')).toEqual(['cuda', 'webgpu', 'cpu']);
    expect(defaultProviders('darwin')).toEqual(['webgpu', 'cpu']);
    expect(defaultProviders('freebsd')).toEqual(['cpu']);
  });

  it('keeps a named device strict and lets it use a software adapter; auto does neither', () => {
    expect(providerPlan('auto', 'linux')).toMatchObject({ cpuFallback: true, softwareAdapter: false });
    expect(providerPlan('webgpu', 'linux')).toEqual({ providers: ['webgpu'], cpuFallback: false, softwareAdapter: true });
    expect(providerPlan('vulkan', 'linux').providers).toEqual(['webgpu']);
    expect(providerPlan('metal', 'darwin').providers).toEqual(['webgpu']);
    expect(providerPlan('cuda', 'linux').providers).toEqual(['cuda']);
  });

  it('refuses a device the platform does not have, saying which to use', () => {
    expect(() => providerPlan('metal', 'linux')).toThrow(/Metal exists only on macOS.*--device auto/);
    expect(() => providerPlan('vulkan', 'darwin')).toThrow(/runs on Metal on macOS.*--device metal/);
    expect(() => providerPlan('vulkan', 'win32')).toThrow(/runs on D3D12 on win32 and cannot be switched to Vulkan.*--device webgpu/);
  });
});

describe('openSession', () => {
  it('auto passes a software adapter over, says why, and runs on the CPU', async () => {
    const opened = await openSession(MODEL, { device: 'auto', adapter: adapter(LLVMPIPE) });
    try {
      expect(opened.provider).not.toBe('webgpu');
      const webgpu = opened.providers.find((p) => p.name === 'webgpu')!;
      expect(webgpu.used).toBe(false);
      expect(webgpu.reason).toMatch(/^only a software adapter \(llvmpipe\).*--device webgpu uses it anyway/);
      // Where the CUDA provider is installed it comes first; everywhere else the CPU takes over.
      if (opened.provider === 'cpu') {
        expect(opened.providers.at(-1)).toEqual({ name: 'cpu', used: true, reason: 'fallback: no accelerator provider started' });
      }
    } finally {
      await opened.session.release();
    }
  });

  it('auto passes WebGPU over where no adapter exists', async () => {
    const opened = await openSession(MODEL, { device: 'auto', adapter: adapter(NOTHING) });
    try {
      expect(opened.providers.find((p) => p.name === 'webgpu')).toEqual({ name: 'webgpu', used: false, reason: 'no GPU adapter: no Vulkan driver installed' });
      expect(opened.provider).not.toBe('webgpu');
    } finally {
      await opened.session.release();
    }
  });

  it('runs on the CPU when asked, as requested', async () => {
    const opened = await openSession(MODEL, { device: 'cpu' });
    try {
      expect(opened.providers).toEqual([{ name: 'cpu', used: true, reason: 'requested' }]);
    } finally {
      await opened.session.release();
    }
  });

  it.skipIf(process.platform !== 'linux')('a named device that cannot start is an error that says what to install, never a quiet CPU run', async () => {
    // Without the CUDA provider library (npm run gpu:install) CUDA cannot start; with it, this machine would have a GPU.
    const error = await openSession(MODEL, { device: 'cuda' }).then(
      (opened) => (opened.device === 'cuda:0' ? null : opened),
      (caught: unknown) => caught,
    );
    if (error === null) return; // CUDA really started here: nothing to refuse.
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('provider');
    expect((error as EngineError).message).toMatch(/--device cuda could not be used .*npm run gpu:install.*--device auto/);
  });

  it.skipIf(probeGpuAdapter().verdict === 'none')('blames the folder, not the named device, for a fault no device would cure', async () => {
    const error = await openSession(join(import.meta.dirname, 'fixtures', 'bf16-cache.onnx'), { device: 'webgpu' }).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('model-corrupt');
    expect((error as EngineError).message).toContain('bfloat16');
  });
});
