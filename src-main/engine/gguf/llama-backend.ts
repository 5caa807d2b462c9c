// Which llama.cpp build runs a GGUF model: node-llama-cpp's prebuilt CPU, CUDA, Vulkan or Metal
// binary, chosen from the app's device choice (common/device.ts). Only builds that came from
// npm are used (never a source build or a download from elsewhere). For each GPU backend the
// report says whether it is in use and why not: the build is not installed (CUDA comes on
// demand: `worldloom gpu-install gguf-cuda`), it found no device, or only a software one.

import { createRequire } from 'node:module';
import type { Llama } from 'node-llama-cpp';
import type { DeviceChoice } from '../../common/device';
import { EngineError } from '../../common/engine';

type GpuType = 'cuda' | 'vulkan' | 'metal';

export interface BackendReport {
  name: string;
  used: boolean;
  reason: string;
}

export interface LlamaBackend {
  llama: Llama;
  /** 'cpu', or the GPU type with its first device's name ("cuda: NVIDIA H100"). */
  device: string;
  gpu: GpuType | false;
  reports: BackendReport[];
}

/** Software renderers a Vulkan build may find: slower than the CPU backend, never picked by 'auto'. */
const SOFTWARE_DEVICE = /llvmpipe|lavapipe|swiftshader|software/i;

/** Prebuilt package node-llama-cpp imports for a GPU type here, if npm ships one for this platform. */
function prebuiltPackage(gpu: GpuType): string | null {
  const os = process.platform === 'win32' ? 'win' : process.platform === 'darwin' ? 'mac' : process.platform;
  if (gpu === 'metal') return process.platform === 'darwin' && process.arch === 'arm64' ? '@node-llama-cpp/mac-arm64-metal' : null;
  if (process.arch !== 'x64' || (os !== 'linux' && os !== 'win')) return null;
  return `@node-llama-cpp/${os}-x64-${gpu}`;
}

/** Whether the prebuilt package for `gpu` is really installed (package.json stands in for CUDA until gpu-install). */
export function prebuiltInstalled(gpu: GpuType): boolean {
  const name = prebuiltPackage(gpu);
  if (!name) return false;
  try {
    const pkg = createRequire(import.meta.url)(`${name}/package.json`) as { name?: string };
    return pkg.name === name;
  } catch {
    return false;
  }
}

function notInstalledReason(gpu: GpuType): string {
  if (!prebuiltPackage(gpu)) return `node-llama-cpp ships no ${gpu} build for ${process.platform}/${process.arch}`;
  if (gpu === 'cuda') return 'the CUDA build is not installed (about 580 MB from npm): run `worldloom gpu-install gguf-cuda`';
  return `the ${gpu} build is not installed; run npm install`;
}

async function open(gpu: GpuType | false): Promise<Llama> {
  // Loaded on first use: importing node-llama-cpp takes about a second, which every CLI verb
  // and every app start would otherwise pay without ever opening a GGUF file.
  const { getLlama, LlamaLogLevel } = await import('node-llama-cpp');
  return getLlama({
    gpu,
    // Prebuilt binaries from npm only: never compile llama.cpp or fetch its sources.
    build: 'never',
    skipDownload: true,
    usePrebuiltBinaries: true,
    logLevel: LlamaLogLevel.error,
  });
}

async function devicesOf(llama: Llama): Promise<string[]> {
  return llama.supportsGpuOffloading ? await llama.getGpuDeviceNames() : [];
}

/**
 * Opens llama.cpp for `choice`: cpu → the CPU build; cuda/vulkan/metal → that build, refused
 * with the reason when it cannot run; auto → the first hardware GPU among CUDA, Metal and Vulkan
 * whose build is installed, else the CPU.
 */
export async function openBackend(choice: DeviceChoice = 'auto'): Promise<LlamaBackend> {
  if (choice === 'webgpu') {
    throw new EngineError('WebGPU is an ONNX Runtime device; a GGUF model runs on llama.cpp: choose cuda, vulkan, metal, cpu or auto.', 'provider');
  }
  const candidates: GpuType[] = process.platform === 'darwin' ? ['metal'] : ['cuda', 'vulkan'];
  const reports: BackendReport[] = [];
  const wanted: GpuType[] = choice === 'auto' ? candidates : choice === 'cpu' ? [] : [choice];
  if (choice === 'cpu') for (const gpu of candidates) reports.push({ name: gpu, used: false, reason: 'the CPU was chosen' });
  const supported = wanted.length > 0 ? await (await import('node-llama-cpp')).getLlamaGpuTypes('supported').catch(() => [] as unknown[]) : [];
  for (const gpu of wanted) {
    if (!prebuiltInstalled(gpu)) {
      reports.push({ name: gpu, used: false, reason: notInstalledReason(gpu) });
      continue;
    }
    if (!supported.includes(gpu)) {
      reports.push({ name: gpu, used: false, reason: gpu === 'cuda' ? 'no NVIDIA driver with CUDA found' : `no ${gpu} runtime found on this machine` });
      continue;
    }
    let llama: Llama;
    try {
      llama = await open(gpu);
    } catch (error) {
      reports.push({ name: gpu, used: false, reason: `its build did not load: ${(error as Error).message}` });
      continue;
    }
    const devices = await devicesOf(llama);
    const hardware = devices.filter((name) => !SOFTWARE_DEVICE.test(name));
    if (hardware.length === 0) {
      reports.push({
        name: gpu,
        used: false,
        reason: devices.length > 0 ? `only a software device (${devices.join(', ')}), slower than the CPU` : 'no device found',
      });
      await llama.dispose();
      continue;
    }
    reports.push({ name: gpu, used: true, reason: `device ${hardware.join(', ')}` });
    for (const rest of wanted.filter((other) => other !== gpu && !reports.some((r) => r.name === other))) {
      reports.push({ name: rest, used: false, reason: `${gpu} came first` });
    }
    return { llama, device: `${gpu}: ${hardware[0]}`, gpu, reports };
  }
  if (choice !== 'auto' && choice !== 'cpu') {
    const why = reports.find((report) => report.name === choice)?.reason ?? 'it is not available';
    throw new EngineError(`The GGUF engine cannot run on ${choice}: ${why}. Choose --device auto or cpu.`, 'provider');
  }
  const llama = await open(false);
  reports.push({ name: 'cpu', used: true, reason: choice === 'cpu' ? 'chosen' : 'no GPU backend could run here' });
  return { llama, device: 'cpu', gpu: false, reports };
}
