// The cores llama.cpp's threads are sized to: the scheduler's CPUs lowered to a container's CPU
// quota, read from cgroup v2 or v1 files as a container runtime writes them.
import { describe, expect, it } from 'vitest';
import { defaultThreads } from './gguf/gguf-engine';
import { cgroupCpuQuota, parseCpuMax, quotaBoundThreads, usableCores, type ReadText } from './usable-cores';

const files =
  (entries: Record<string, string>): ReadText =>
  (path) =>
    entries[path] ?? null;

describe('usable cores', () => {
  it('reads a cgroup v2 quota on the process cgroup or on a parent of it', () => {
    expect(cgroupCpuQuota(files({ '/proc/self/cgroup': '0::/ci/job\n', '/sys/fs/cgroup/ci/job/cpu.max': '200000 100000\n' }))).toBe(2);
    const parentLimited = files({
      '/proc/self/cgroup': '0::/kubepods/pod1/ctr\n',
      '/sys/fs/cgroup/kubepods/pod1/ctr/cpu.max': 'max 100000\n',
      '/sys/fs/cgroup/kubepods/pod1/cpu.max': '150000 100000\n',
      '/sys/fs/cgroup/kubepods/cpu.max': '800000 100000\n',
    });
    expect(cgroupCpuQuota(parentLimited)).toBe(1.5);
    // Inside a cgroup namespace the process sees itself at the root.
    expect(cgroupCpuQuota(files({ '/proc/self/cgroup': '0::/\n', '/sys/fs/cgroup/cpu.max': '100000 100000' }))).toBe(1);
  });

  it('reads a cgroup v1 quota, and none when the quota is -1 or the files are absent', () => {
    const v1 = '4:memory:/x\n3:cpu,cpuacct:/docker/abc\n0::/\n';
    expect(
      cgroupCpuQuota(
        files({ '/proc/self/cgroup': v1, '/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us': '300000\n', '/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us': '100000\n' }),
      ),
    ).toBe(3);
    expect(
      cgroupCpuQuota(files({ '/proc/self/cgroup': '1:cpu:/\n', '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '-1\n', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n' })),
    ).toBeNull();
    expect(cgroupCpuQuota(files({}))).toBeNull();
    expect(parseCpuMax('max 100000')).toBeNull();
    expect(parseCpuMax('garbage')).toBeNull();
  });

  it('sizes llama.cpp to the quota, not to every CPU of the host, and leaves one core to the app', () => {
    // A 2-core CI runner on a 64-CPU host: one thread, not 63 spinning on two cores.
    expect(defaultThreads(usableCores(64, 2))).toBe(1);
    expect(usableCores(64, 1.5)).toBe(2);
    expect(usableCores(4, 16)).toBe(4);
    expect(usableCores(8, null)).toBe(8);
    expect(defaultThreads(usableCores(1, 0.5))).toBe(1);
    expect(defaultThreads(8)).toBe(7);
  });

  it("gives onnxruntime the quota's cores only where a quota is tighter than the CPUs", () => {
    expect(quotaBoundThreads(64, 2)).toBe(2);
    expect(quotaBoundThreads(2, 4)).toBeUndefined();
    expect(quotaBoundThreads(8, null)).toBeUndefined();
  });
});
