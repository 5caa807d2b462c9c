// Opens the decoder on the best execution provider this machine offers, falling back
// provider by provider to the CPU and recording why each one was or was not used, so the
// model panel can say "CUDA: runtime not installed" instead of silently running slowly.

import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ort from 'onnxruntime-node';
import type { InferenceSession } from 'onnxruntime-node';
import { EngineError, type EngineDescription } from '../../common/engine';

export type ProviderName = 'cuda' | 'dml' | 'coreml' | 'cpu';
export type ProviderReport = EngineDescription['providers'][number];

export interface OpenedSession {
  session: InferenceSession;
  provider: ProviderName;
  /** "cuda:0", "dml", "coreml" or "cpu". */
  device: string;
  providers: ProviderReport[];
}

export interface SessionSettings {
  /** Providers to try in order; the CPU is always the last resort. Default: by platform. */
  providers?: readonly ProviderName[];
  intraOpThreads?: number;
}

export function defaultProviders(platform: NodeJS.Platform = process.platform): ProviderName[] {
  if (platform === 'win32') return ['cuda', 'dml', 'cpu'];
  if (platform === 'darwin') return ['coreml', 'cpu'];
  if (platform === 'linux') return ['cuda', 'cpu'];
  return ['cpu'];
}

const PLATFORMS: Record<ProviderName, readonly NodeJS.Platform[] | null> = {
  cuda: ['linux', 'win32'],
  dml: ['win32'],
  coreml: ['darwin'],
  cpu: null,
};

export async function openSession(modelPath: string, settings: SessionSettings = {}): Promise<OpenedSession> {
  const wanted = [...(settings.providers ?? defaultProviders())];
  if (!wanted.includes('cpu')) wanted.push('cpu');
  const reports: ProviderReport[] = [];
  let lastError: Error | null = null;
  for (const provider of wanted) {
    const unavailable = whyUnavailable(provider);
    if (unavailable) {
      reports.push({ name: provider, used: false, reason: unavailable });
      continue;
    }
    try {
      const session = await ort.InferenceSession.create(modelPath, sessionOptions(provider, settings));
      const reason = provider !== 'cpu' ? 'started' : reports.length > 0 ? 'fallback: no accelerator provider started' : 'requested';
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
  throw new EngineError(
    `${modelPath} could not be loaded by onnxruntime (${oneLine(lastError?.message ?? 'no provider could start')}). ` +
      'The file may be truncated or not an ONNX model; rebuild or re-download the model folder.',
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

function sessionOptions(provider: ProviderName, settings: SessionSettings): InferenceSession.SessionOptions {
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
function whyUnavailable(provider: ProviderName): string | null {
  const platforms = PLATFORMS[provider];
  if (platforms && !platforms.includes(process.platform)) return `not available on ${process.platform}`;
  if (provider === 'cuda') {
    const binaries = bindingFolder();
    // onnxruntime-node ships the CUDA provider as a separate download; without it, trying only logs errors.
    if (binaries && !readdirSync(binaries).some((file) => /onnxruntime_providers_cuda/.test(file))) {
      return 'CUDA provider library not installed (npm run gpu:install), or no NVIDIA driver';
    }
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
