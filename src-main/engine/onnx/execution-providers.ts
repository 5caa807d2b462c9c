// Opens the decoder on the best execution provider this machine offers, falling back
// provider by provider to the CPU and recording why each one was or was not used, so the
// model panel can say "CUDA: runtime not installed" instead of silently running slowly.
//
// The default order puts only providers that run the whole Qwen3.5-MoE graph (QMoE, the
// linear-attention operators, GroupQueryAttention, MatMulNBits) ahead of the CPU: CUDA when its
// runtime is installed, then WebGPU (in onnxruntime-node's own binary: Dawn over Vulkan, D3D12
// or Metal). CoreML and DirectML have none of those kernels, so a graph "on" them runs its heavy
// operators on the CPU with copies in between: they are used only when named in `providers`.

import { onnxOpenAdvice } from './open-advice';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ort from 'onnxruntime-node';
import type { InferenceSession } from 'onnxruntime-node';
import type { DeviceChoice } from '../../common/device';
import { EngineError, type EngineDescription } from '../../common/engine';
import { probeGpuAdapter, type GpuAdapterProbe } from '../gpu-adapter';

export type ProviderName = 'cuda' | 'webgpu' | 'dml' | 'coreml' | 'cpu';
export type ProviderReport = EngineDescription['providers'][number];

export interface OpenedSession {
  session: InferenceSession;
  provider: ProviderName;
  /** "cuda:0", "webgpu", "dml", "coreml" or "cpu". */
  device: string;
  providers: ProviderReport[];
}

export interface SessionSettings {
  /** The user's choice (--device, the model panel). Default 'auto'; ignored when `providers` is given. */
  device?: DeviceChoice;
  /** Providers to try in order instead of `device` (tests, benches); the CPU is always the last resort. */
  providers?: readonly ProviderName[];
  intraOpThreads?: number;
  /** Where WebGPU would run; default: probed on this machine (engine/gpu-adapter.ts). */
  adapter?: () => GpuAdapterProbe;
}

export function defaultProviders(platform: NodeJS.Platform = process.platform): ProviderName[] {
  // Windows: CUDA where installed, else WebGPU on D3D12, which has the QMoE and linear-attention
  // kernels that DirectML lacks (not measured here: no Windows machine; see docs/models.md, "Devices").
  if (platform === 'win32') return ['cuda', 'webgpu', 'cpu'];
  if (platform === 'darwin') return ['webgpu', 'cpu'];
  if (platform === 'linux') return ['cuda', 'webgpu', 'cpu'];
  return ['cpu'];
}

/** What a device choice asks of onnxruntime. */
export interface ProviderPlan {
  providers: ProviderName[];
  /** false: the user named a device, so failing to start it is an error, not a quiet CPU run. */
  cpuFallback: boolean;
  /** Whether a software GPU adapter (llvmpipe) may be used: only when the user asked for WebGPU by name. */
  softwareAdapter: boolean;
}

export function providerPlan(device: DeviceChoice, platform: NodeJS.Platform = process.platform): ProviderPlan {
  const named = (providers: ProviderName[]): ProviderPlan => ({ providers, cpuFallback: false, softwareAdapter: true });
  switch (device) {
    case 'auto':
      return { providers: defaultProviders(platform), cpuFallback: true, softwareAdapter: false };
    case 'cpu':
      return named(['cpu']);
    case 'cuda':
      return named(['cuda']);
    case 'webgpu':
      return named(['webgpu']);
    case 'vulkan':
      // onnxruntime-node's Dawn runs on Vulkan on Linux only; its Node binding passes no backend choice
      // (a Dawn backend option is refused as unrecognised), so Windows' WebGPU is D3D12 and macOS' Metal.
      if (platform === 'darwin') {
        throw new EngineError('--device vulkan: onnxruntime\'s WebGPU runs on Metal on macOS, not Vulkan. Use --device metal (or auto).', 'provider');
      }
      if (platform !== 'linux') {
        throw new EngineError(
          `--device vulkan: onnxruntime's WebGPU runs on D3D12 on ${platform} and cannot be switched to Vulkan. Use --device webgpu (or auto).`,
          'provider',
        );
      }
      return named(['webgpu']);
    case 'metal':
      if (platform !== 'darwin') {
        throw new EngineError(`--device metal: Metal exists only on macOS, not ${platform}. Use --device auto, webgpu, vulkan or cuda.`, 'provider');
      }
      return named(['webgpu']);
  }
}

/**
 * The backend onnxruntime-node's Dawn runs on, by platform (the Node binding offers no other).
 * onnxruntime asks Dawn for the high-performance adapter, so a laptop's discrete GPU wins.
 */
const DAWN_BACKENDS: Partial<Record<NodeJS.Platform, string>> = { linux: 'Vulkan', win32: 'D3D12', darwin: 'Metal' };

const PLATFORMS: Record<ProviderName, readonly NodeJS.Platform[] | null> = {
  cuda: ['linux', 'win32'],
  webgpu: ['linux', 'win32', 'darwin'],
  dml: ['win32'],
  coreml: ['darwin'],
  cpu: null,
};

export async function openSession(modelPath: string, settings: SessionSettings = {}): Promise<OpenedSession> {
  const device = settings.device ?? 'auto';
  const plan: ProviderPlan = settings.providers
    ? { providers: [...settings.providers], cpuFallback: true, softwareAdapter: true }
    : providerPlan(device);
  const wanted = [...plan.providers];
  if (plan.cpuFallback && !wanted.includes('cpu')) wanted.push('cpu');
  const reports: ProviderReport[] = [];
  let lastError: Error | null = null;
  for (const provider of wanted) {
    const adapter = provider === 'webgpu' ? (settings.adapter ?? probeGpuAdapter)() : null;
    const unavailable = whyUnavailable(provider, plan, adapter);
    if (unavailable) {
      reports.push({ name: provider, used: false, reason: unavailable });
      continue;
    }
    try {
      const session = await ort.InferenceSession.create(modelPath, sessionOptions(provider, settings));
      const reason =
        provider === 'webgpu'
          ? `started on ${DAWN_BACKENDS[process.platform] ?? 'Dawn'}, ${adapter!.verdict} adapter ${adapter!.name} (${adapter!.detail})`
          : provider !== 'cpu'
            ? 'started'
            : reports.length > 0
              ? 'fallback: no accelerator provider started'
              : 'requested';
      reports.push({ name: provider, used: true, reason });
      return { session, provider, device: provider === 'cuda' ? 'cuda:0' : provider, providers: reports };
    } catch (error) {
      lastError = error as Error;
      reports.push({ name: provider, used: false, reason: `failed to start: ${oneLine(lastError.message)}` });
    }
  }
  if (/External data path/.test(lastError?.message ?? '')) {
    // onnxruntime refuses weights outside the graph's folder (a "..", an absolute path or a link out of it).
    throw new EngineError(
      `${modelPath} names weights (external data) outside its folder, which is refused: ${oneLine(lastError!.message)}. ` +
        'Put the data file itself in the model folder, under the name the graph gives it.',
      'model-corrupt',
    );
  }
  if (/Unsupported data type: 16\b/.test(lastError?.message ?? '')) {
    // onnxruntime-node 1.30 has no bfloat16 tensor type, so it cannot even open such a graph.
    throw new EngineError(
      `${modelPath} passes bfloat16 tensors in or out (the model builder's bf16 caches), which onnxruntime-node cannot exchange. ` +
        'Build the folder with float16 or float32 inputs and outputs instead: model builder -p fp16 (GPU), -p int4 without ' +
        'use_cuda_bf16, or -p fp32 (CPU).',
      'model-corrupt',
    );
  }
  // Checked after the folder's own faults above, which no other device would cure.
  if (!plan.cpuFallback && !settings.providers && device !== 'cpu') {
    const tried = reports.map((r) => `${r.name}: ${r.reason}`).join('; ');
    throw new EngineError(
      `--device ${device} could not be used for ${modelPath} (${tried}). ${DEVICE_ADVICE[device] ?? ''}` +
        'Choose --device auto to fall back to the CPU.',
      'provider',
    );
  }
  throw new EngineError(
    `${modelPath} could not be loaded by onnxruntime (${oneLine(lastError?.message ?? 'no provider could start')}). ` +
      onnxOpenAdvice(lastError?.message ?? ''),
    'model-corrupt',
  );
}

/**
 * onnxruntime's worker threads busy-wait between operators by default. The engine runs in
 * the app's main process beside the UI, and decode steps are many short runs: a spinning
 * pool steals the cores it waits for whenever anything else is busy (decode measured 3-6×
 * slower with spinning on a loaded 2-core machine; bench/engine.bench.ts).
 */
export const QUIET_THREAD_POOL: InferenceSession.SessionOptions = {
  extra: { session: { intra_op: { allow_spinning: '0' } } },
};

const DEVICE_ADVICE: Partial<Record<DeviceChoice, string>> = {
  cuda: 'Install the CUDA provider (npm run gpu:install) and an NVIDIA driver. ',
  webgpu: 'Install a Vulkan driver for the GPU (Linux: the GPU vendor\'s driver or Mesa\'s mesa-vulkan-drivers). ',
  vulkan: 'Install a Vulkan driver for the GPU (Linux: the GPU vendor\'s driver or Mesa\'s mesa-vulkan-drivers). ',
};

export function sessionOptions(provider: ProviderName, settings: SessionSettings): InferenceSession.SessionOptions {
  const options: InferenceSession.SessionOptions = {
    executionProviders: [provider === 'cuda' ? { name: 'cuda', deviceId: 0 } : provider],
    graphOptimizationLevel: 'all',
    logSeverityLevel: 3,
    ...(settings.intraOpThreads ? { intraOpNumThreads: settings.intraOpThreads } : {}),
    ...QUIET_THREAD_POOL,
  };
  // DirectML does not support memory patterns or parallel execution (onnxruntime docs).
  if (provider === 'dml') return { ...options, enableMemPattern: false, executionMode: 'sequential' };
  return options;
}

/** A reason not to try `provider` here, or null to try it. */
function whyUnavailable(provider: ProviderName, plan: ProviderPlan, adapter: GpuAdapterProbe | null): string | null {
  const platforms = PLATFORMS[provider];
  if (platforms && !platforms.includes(process.platform)) return `not available on ${process.platform}`;
  if (provider === 'cuda') {
    const binaries = bindingFolder();
    // onnxruntime-node ships the CUDA provider as a separate download; without it, trying only logs errors.
    if (binaries && !readdirSync(binaries).some((file) => /onnxruntime_providers_cuda/.test(file))) {
      return 'CUDA provider library not installed (npm run gpu:install), or no NVIDIA driver';
    }
  }
  if (provider === 'webgpu' && adapter && !plan.softwareAdapter) {
    // Measured: the embedded model through lavapipe took 4 min for what the CPU provider does in 7 s.
    if (adapter.verdict === 'software') {
      return `only a software adapter (${adapter.name}), far slower than the CPU provider: ${adapter.detail}; --device webgpu uses it anyway`;
    }
    if (adapter.verdict === 'none') return `no GPU adapter: ${adapter.detail}`;
  }
  return null;
}

/** onnxruntime-node's native binaries for this platform, when they can be located. */
function bindingFolder(): string | null {
  try {
    const packageRoot = dirname(dirname(createRequire(import.meta.url).resolve('onnxruntime-node')));
    const bin = join(packageRoot, 'bin');
    for (const napi of readdirSync(bin)) {
      const folder = join(bin, napi, process.platform, process.arch);
      if (existsSync(folder)) return folder;
    }
  } catch {
    // A bundled or relocated install: fall through and simply try the provider.
  }
  return null;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}
