// How many cores this process may really run on. os.availableParallelism() counts the CPUs the
// scheduler lets it use (its affinity), but a container limited by a CPU quota (Docker's --cpus,
// a Kubernetes CPU limit, a CI runner) still sees every CPU of the host: a 2-core runner on a
// 64-CPU host reports 64. llama.cpp's threads wait for each other by spinning, so one thread per
// reported CPU on a 2-core quota starves itself for minutes per token. The quota is read the way
// the JVM and Go's automaxprocs read it: cgroup v2's cpu.max, else v1's cfs_quota_us/cfs_period_us.

import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

/** Reads a file's text, or null when it is absent or unreadable (no cgroup of that kind). */
export type ReadText = (path: string) => string | null;

const readText: ReadText = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/** The CPU quota in cores (fractional), or null when there is none. */
export function cgroupCpuQuota(read: ReadText = readText): number | null {
  const membership = read('/proc/self/cgroup') ?? '';
  // cgroup v2: one line "0::/path"; the limit may sit on this cgroup or any parent of it.
  const v2 = /^0::(\/.*)$/m.exec(membership)?.[1];
  if (v2 !== undefined) {
    const limits = ancestors(v2)
      .map((dir) => read(join('/sys/fs/cgroup', dir, 'cpu.max')))
      .map((text) => parseCpuMax(text))
      .filter((quota): quota is number => quota !== null);
    if (limits.length > 0) return Math.min(...limits);
  }
  // cgroup v1: the cpu controller's line names the path under /sys/fs/cgroup/cpu (or cpu,cpuacct).
  const v1 = /^\d+:[^:]*\bcpu\b[^:]*:(\/.*)$/m.exec(membership)?.[1];
  if (v1 !== undefined) {
    for (const mount of ['/sys/fs/cgroup/cpu', '/sys/fs/cgroup/cpu,cpuacct']) {
      for (const dir of [v1, '/']) {
        const quota = Number(read(join(mount, dir, 'cpu.cfs_quota_us'))?.trim());
        const period = Number(read(join(mount, dir, 'cpu.cfs_period_us'))?.trim());
        if (quota > 0 && period > 0) return quota / period;
      }
    }
  }
  return null;
}

/** "200000 100000" → 2; "max 100000" (no limit) or anything unreadable → null. */
export function parseCpuMax(text: string | null): number | null {
  const [quota, period] = (text ?? '').trim().split(/\s+/);
  const q = Number(quota);
  const p = Number(period);
  return quota !== 'max' && q > 0 && p > 0 ? q / p : null;
}

function ancestors(path: string): string[] {
  const parts = path.split('/').filter(Boolean);
  return parts.map((_, i) => '/' + parts.slice(0, parts.length - i).join('/')).concat('/');
}

/** The CPUs the scheduler allows, lowered to the cgroup quota (rounded up: 1.5 cores is 2). */
export function usableCores(cpus = availableParallelism(), quota = cgroupCpuQuota()): number {
  return Math.max(1, quota === null ? cpus : Math.min(cpus, Math.ceil(quota)));
}

/**
 * The thread count to give a runtime that sizes its own pool from the host's CPUs (onnxruntime
 * counts physical cores, quota or not): the quota's cores where a quota is tighter than the
 * CPUs, else undefined (the runtime's own choice).
 */
export function quotaBoundThreads(cpus = availableParallelism(), quota = cgroupCpuQuota()): number | undefined {
  const usable = usableCores(cpus, quota);
  return usable < cpus ? usable : undefined;
}
