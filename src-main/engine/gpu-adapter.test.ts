// The adapter probe reads the same files the Vulkan loader and the kernel expose; each case
// lays out such a tree (driver manifests, /sys/class/drm links, /proc/driver/nvidia) in a
// temporary folder and reads it as the machine's own.
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDisplayAdapterQuery, probeGpuAdapter, type ProbeSources } from './gpu-adapter';

interface Tree {
  /** Manifest file name → the driver library it names. */
  icds?: Record<string, string>;
  /** Kernel driver of each /sys/class/drm card. */
  cards?: string[];
  nvidiaProc?: boolean;
  env?: NodeJS.ProcessEnv;
}

function machine(tree: Tree): ProbeSources {
  const root = mkdtempSync(join(tmpdir(), 'wl-gpu-'));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  for (const [file, library] of Object.entries(tree.icds ?? {})) {
    write(`/usr/share/vulkan/icd.d/${file}`, JSON.stringify({ file_format_version: '1.0.1', ICD: { library_path: library, api_version: '1.4.305' } }));
  }
  (tree.cards ?? []).forEach((driver, i) => {
    const device = join(root, `/sys/devices/pci0000:00/0000:00:0${i}.0`);
    mkdirSync(device, { recursive: true });
    mkdirSync(join(root, '/sys/bus/pci/drivers', driver), { recursive: true });
    symlinkSync(`../../../bus/pci/drivers/${driver}`, join(device, 'driver'));
    mkdirSync(join(root, `/sys/class/drm/card${i}`), { recursive: true });
    symlinkSync(device, join(root, `/sys/class/drm/card${i}/device`));
  });
  if (tree.nvidiaProc) write('/proc/driver/nvidia/version', 'NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.86.15\n');
  return { platform: 'linux', env: { XDG_DATA_DIRS: '/usr/local/share:/usr/share', ...tree.env }, root, home: '/home/user' };
}

const LVP = { 'lvp_icd.json': '/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so' };
const MESA = {
  ...LVP,
  'intel_icd.json': '/usr/lib/x86_64-linux-gnu/libvulkan_intel.so',
  'radeon_icd.json': '/usr/lib/x86_64-linux-gnu/libvulkan_radeon.so',
};

describe('probeGpuAdapter on Linux', () => {
  it('calls lavapipe alone a software adapter: the case auto must skip', () => {
    expect(probeGpuAdapter(machine({ icds: LVP }))).toMatchObject({ verdict: 'software', name: 'llvmpipe' });
  });

  it('Mesa\'s full set without a GPU is still only software (the other drivers drive nothing)', () => {
    const probe = probeGpuAdapter(machine({ icds: MESA }));
    expect(probe).toMatchObject({ verdict: 'software', name: 'llvmpipe' });
    expect(probe.detail).toContain('no GPU found');
  });

  it('finds the GPU a Mesa driver drives, through /sys/class/drm', () => {
    expect(probeGpuAdapter(machine({ icds: MESA, cards: ['i915'] }))).toMatchObject({ verdict: 'hardware', name: 'Intel' });
    expect(probeGpuAdapter(machine({ icds: MESA, cards: ['amdgpu'] }))).toMatchObject({ verdict: 'hardware', name: 'AMD (RADV)' });
  });

  it('finds an NVIDIA GPU from its driver\'s proc entry (containers have no /sys/class/drm)', () => {
    const icds = { ...LVP, 'nvidia_icd.json': 'libGLX_nvidia.so.0' };
    expect(probeGpuAdapter(machine({ icds, nvidiaProc: true }))).toMatchObject({ verdict: 'hardware', name: 'NVIDIA' });
  });

  it('says which GPU lacks a Vulkan driver when only lavapipe could run', () => {
    const probe = probeGpuAdapter(machine({ icds: LVP, cards: ['nouveau'] }));
    expect(probe.verdict).toBe('software');
    expect(probe.detail).toContain('nouveau have no Vulkan driver');
  });

  it('is none without any Vulkan driver, and unknown for a driver it cannot name (left to Dawn)', () => {
    expect(probeGpuAdapter(machine({})).verdict).toBe('none');
    expect(probeGpuAdapter(machine({ icds: { 'intel_icd.json': 'libvulkan_intel.so' } })).verdict).toBe('none');
    expect(probeGpuAdapter(machine({ icds: { ...LVP, 'vendor.json': '/opt/vendor/libvendor_vk.so' } }))).toMatchObject({
      verdict: 'unknown',
      name: 'libvendor_vk.so',
    });
  });

  it('reads only the drivers VK_DRIVER_FILES names, as the loader does', () => {
    const sources = machine({ icds: MESA, cards: ['i915'] });
    sources.env.VK_DRIVER_FILES = '/usr/share/vulkan/icd.d/lvp_icd.json';
    expect(probeGpuAdapter(sources)).toMatchObject({ verdict: 'software', name: 'llvmpipe' });
  });
});

describe('probeGpuAdapter elsewhere', () => {
  const base = { env: {}, root: '/nonexistent', home: '/nonexistent' };

  it('trusts Metal on macOS', () => {
    expect(probeGpuAdapter({ ...base, platform: 'darwin' })).toMatchObject({ verdict: 'hardware', name: 'Metal' });
  });

  it('on Windows, calls a machine with only Microsoft\'s placeholder adapters software (WARP)', () => {
    const windows = (names: string[] | null) => probeGpuAdapter({ ...base, platform: 'win32', windowsAdapters: () => names });
    expect(windows(['Microsoft Basic Render Driver', 'Microsoft Basic Display Adapter'])).toMatchObject({ verdict: 'software', name: 'WARP' });
    expect(windows(['Microsoft Hyper-V Video'])).toMatchObject({ verdict: 'software', name: 'WARP' });
    expect(windows(['Microsoft Basic Render Driver', 'NVIDIA GeForce RTX 4070 Laptop GPU'])).toMatchObject({
      verdict: 'hardware',
      name: 'NVIDIA GeForce RTX 4070 Laptop GPU',
    });
    expect(windows(null).verdict).toBe('unknown');
  });

  it('reads the adapters\' names from reg query\'s output, CRLF and all', () => {
    const output = [
      '',
      'HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}\\0000',
      '    DriverDesc    REG_SZ    Intel(R) UHD Graphics 620',
      '',
      'HKEY_LOCAL_MACHINE\\SYSTEM\\CurrentControlSet\\Control\\Class\\{4d36e968-e325-11ce-bfc1-08002be10318}\\0001',
      '    DriverDesc    REG_SZ    Microsoft Basic Render Driver',
      '',
      'End of search: 2 match(es) found.',
    ].join('\r\n');
    expect(parseDisplayAdapterQuery(output)).toEqual(['Intel(R) UHD Graphics 620', 'Microsoft Basic Render Driver']);
  });
});
