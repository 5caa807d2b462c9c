// Which GPU adapter a WebGPU (Dawn) or Vulkan device would get on this machine, found without
// starting one: Dawn picks a hardware adapter when there is one and falls back to a software
// rasteriser (Mesa's lavapipe, "llvmpipe"; SwiftShader) when there is none. A software adapter
// runs the model far slower than the CPU provider (the embedded model: 4 min instead of 7 s),
// so `auto` must not pick it, yet neither onnxruntime-node nor Dawn reports the adapter before
// a session runs. On Linux the answer is in files: the Vulkan loader's driver manifests
// (ICD JSON files) say which drivers are installed, and /sys says which GPUs the kernel drives.
// On Windows the registry lists the display adapters and their drivers.
// Engine-neutral: the GGUF engine's Vulkan backend meets the same drivers.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, delimiter, join } from 'node:path';

export interface GpuAdapterProbe {
  /**
   * hardware: a GPU with a driver for it; software: only a CPU rasteriser would be used;
   * none: nothing would start; unknown: a driver this probe does not know, or a platform whose
   * adapter it cannot see (try it and let the runtime decide).
   */
  verdict: 'hardware' | 'software' | 'none' | 'unknown';
  /** The adapter in the user's words: "NVIDIA", "llvmpipe", "Metal"… */
  name: string;
  /** What the verdict rests on, for the model panel. */
  detail: string;
}

interface KnownDriver {
  /** Matches the driver library's file name in its manifest. */
  library: RegExp;
  name: string;
  /** Kernel drivers of the GPUs it drives; empty for a software rasteriser. */
  kernel: readonly string[];
}

/** Mesa's and the vendors' Vulkan drivers, by library name, with the kernel drivers of their GPUs. */
const DRIVERS: readonly KnownDriver[] = [
  { library: /vulkan_lvp/, name: 'llvmpipe', kernel: [] },
  { library: /swiftshader/i, name: 'SwiftShader', kernel: [] },
  { library: /vulkan_intel/, name: 'Intel', kernel: ['i915', 'xe'] },
  { library: /vulkan_radeon/, name: 'AMD (RADV)', kernel: ['amdgpu', 'radeon'] },
  { library: /amdvlk/, name: 'AMD (AMDVLK)', kernel: ['amdgpu'] },
  { library: /nvidia/i, name: 'NVIDIA', kernel: ['nvidia'] },
  { library: /vulkan_nouveau/, name: 'NVIDIA (NVK)', kernel: ['nouveau'] },
  { library: /vulkan_virtio/, name: 'virtio-gpu (Venus)', kernel: ['virtio_gpu', 'virtio-pci'] },
  { library: /gfxstream/, name: 'gfxstream', kernel: ['virtio_gpu', 'virtio-pci'] },
  { library: /vulkan_freedreno/, name: 'Adreno (Turnip)', kernel: ['msm'] },
  { library: /vulkan_panfrost/, name: 'Mali (PanVK)', kernel: ['panfrost', 'panthor'] },
  { library: /vulkan_broadcom/, name: 'Broadcom (V3DV)', kernel: ['v3d'] },
  { library: /vulkan_asahi/, name: 'Apple (Honeykrisp)', kernel: ['asahi'] },
  { library: /vulkan_powervr/, name: 'PowerVR', kernel: ['pvr'] },
  { library: /vulkan_dzn/, name: 'D3D12 through WSL (Dozen)', kernel: ['dxg'] },
];

export interface ProbeSources {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  /** Prefixed to every absolute path read (a test's temporary tree); '' for the real machine. */
  root: string;
  home: string;
  /** Windows: the display adapters' names; default: read from the registry. */
  windowsAdapters?: () => string[] | null;
}

const MACHINE: ProbeSources = { platform: process.platform, env: process.env, root: '', home: homedir() };

/** What a WebGPU session would run on (Dawn: Vulkan on Linux, D3D12 on Windows, Metal on macOS). */
export function probeGpuAdapter(sources: ProbeSources = MACHINE): GpuAdapterProbe {
  if (sources.platform === 'darwin') {
    // Every Mac that runs macOS 11+ has a Metal GPU, and Dawn offers no software Metal adapter.
    return { verdict: 'hardware', name: 'Metal', detail: 'macOS: Dawn runs on the Metal GPU' };
  }
  if (sources.platform === 'win32') return classifyWindowsAdapters(sources.windowsAdapters?.() ?? windowsDisplayAdapters());
  if (sources.platform !== 'linux') return { verdict: 'unknown', name: 'unknown', detail: `${sources.platform}: the adapter is left to Dawn` };
  return probeLinuxVulkan(sources);
}

/**
 * Windows: D3D12's software adapter (WARP) is what a machine gets whose display adapters are
 * all Microsoft's own placeholders (no GPU driver installed, a Hyper-V or remote-desktop VM).
 */
const WINDOWS_SOFTWARE = /^Microsoft (Basic Render Driver|Basic Display Adapter|Hyper-V Video|Remote Display Adapter)/i;

export function classifyWindowsAdapters(names: readonly string[] | null): GpuAdapterProbe {
  if (names === null) return { verdict: 'unknown', name: 'D3D12', detail: 'the display adapters could not be read; the adapter is left to Dawn' };
  const hardware = names.filter((name) => !WINDOWS_SOFTWARE.test(name));
  if (hardware.length > 0) return { verdict: 'hardware', name: hardware[0]!, detail: `display adapters: ${names.join(', ')}` };
  if (names.length > 0) return { verdict: 'software', name: 'WARP', detail: `only ${names.join(', ')}: no GPU driver installed` };
  return { verdict: 'unknown', name: 'D3D12', detail: 'no display adapter listed; the adapter is left to Dawn' };
}

/** The DriverDesc values of `reg query` over the display adapter class ({4d36e968-…}). */
export function parseDisplayAdapterQuery(output: string): string[] {
  return [...output.matchAll(/^\s*DriverDesc\s+REG_SZ\s+(.+?)\s*$/gm)].map((m) => m[1]!);
}

function windowsDisplayAdapters(): string[] | null {
  try {
    const output = execFileSync(
      'reg',
      ['query', 'HKLM\\SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}', '/s', '/v', 'DriverDesc'],
      { encoding: 'utf8', timeout: 5000, windowsHide: true },
    );
    return parseDisplayAdapterQuery(output);
  } catch {
    return null;
  }
}

function probeLinuxVulkan(sources: ProbeSources): GpuAdapterProbe {
  const manifests = vulkanManifests(sources);
  if (manifests.length === 0) {
    return { verdict: 'none', name: 'none', detail: 'no Vulkan driver installed (no ICD manifest in the Vulkan loader\'s folders)' };
  }
  const gpus = kernelGpuDrivers(sources);
  const drivers = manifests.map((library) => ({ library, known: DRIVERS.find((d) => d.library.test(basename(library))) }));
  const hardware = drivers.find((d) => d.known && d.known.kernel.some((k) => gpus.has(k)));
  if (hardware) return { verdict: 'hardware', name: hardware.known!.name, detail: `Vulkan driver ${basename(hardware.library)}` };
  const unknown = drivers.find((d) => !d.known);
  if (unknown) return { verdict: 'unknown', name: basename(unknown.library), detail: `Vulkan driver ${basename(unknown.library)}, not identified` };
  const software = drivers.find((d) => d.known!.kernel.length === 0);
  const gpuNote = gpus.size ? `GPUs driven by ${[...gpus].join(', ')} have no Vulkan driver installed` : 'no GPU found';
  if (software) return { verdict: 'software', name: software.known!.name, detail: `${gpuNote}; only ${basename(software.library)}` };
  return { verdict: 'none', name: 'none', detail: `${gpuNote} (installed: ${drivers.map((d) => basename(d.library)).join(', ')})` };
}

/** Driver libraries named by the Vulkan loader's manifests, searched as the loader searches them. */
function vulkanManifests(sources: ProbeSources): string[] {
  const { env } = sources;
  const list = (value: string | undefined) => (value ? value.split(delimiter).filter(Boolean) : []);
  const override = list(env.VK_DRIVER_FILES ?? env.VK_ICD_FILENAMES);
  const folders = override.length
    ? override
    : [
        ...list(env.XDG_CONFIG_DIRS || '/etc/xdg').map((d) => join(d, 'vulkan/icd.d')),
        '/etc/vulkan/icd.d',
        join(env.XDG_DATA_HOME || join(sources.home, '.local/share'), 'vulkan/icd.d'),
        ...list(env.XDG_DATA_DIRS || '/usr/local/share:/usr/share').map((d) => join(d, 'vulkan/icd.d')),
        ...list(env.VK_ADD_DRIVER_FILES),
      ];
  const libraries = new Set<string>();
  for (const entry of folders) {
    const path = sources.root + entry;
    let files: string[];
    try {
      files = entry.endsWith('.json') ? [path] : readdirSync(path).filter((f) => f.endsWith('.json')).map((f) => join(path, f));
    } catch {
      continue;
    }
    for (const file of files) {
      const library = manifestLibrary(file);
      if (library) libraries.add(library);
    }
  }
  return [...libraries];
}

function manifestLibrary(file: string): string | null {
  try {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { ICD?: { library_path?: unknown } };
    const path = manifest.ICD?.library_path;
    return typeof path === 'string' && path ? path : null;
  } catch {
    // A manifest the loader cannot read either.
    return null;
  }
}

/** Kernel drivers of the GPUs present: /sys/class/drm's cards, NVIDIA's proc entry, WSL's /dev/dxg. */
function kernelGpuDrivers(sources: ProbeSources): Set<string> {
  const found = new Set<string>();
  const drm = `${sources.root}/sys/class/drm`;
  try {
    for (const card of readdirSync(drm).filter((name) => /^(card|renderD)\d+$/.test(name))) {
      try {
        found.add(basename(readlinkSync(join(drm, card, 'device', 'driver'))));
      } catch {
        // A card without a bound driver drives nothing.
      }
    }
  } catch {
    // No /sys/class/drm (a container): the other signs below may still be there.
  }
  if (existsSync(`${sources.root}/proc/driver/nvidia/version`)) found.add('nvidia');
  if (existsSync(`${sources.root}/dev/dxg`)) found.add('dxg');
  return found;
}
