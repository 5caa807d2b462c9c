import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatch } from './dispatch';
import { Studio } from './studio';
import { gpuRuntimeStatus } from '../simulation/gpu-runtime';

describe('installing the CUDA runtime as a job', () => {
  // Where it is installed (or cannot be), there is nothing to start and stop.
  it.skipIf(gpuRuntimeStatus() !== 'not-installed')('stops the installer on job.cancel and says it was cancelled', async () => {
    const studio = new Studio({ door: 'host', resourcesDir: join(process.cwd(), 'resources') });
    const kinds: string[] = [];
    studio.onEvent((event, payload) => {
      if (event === 'job.progress') kinds.push((payload as { kind: string }).kind);
    });
    const install = dispatch(studio, 'model.installGpuRuntime', { jobId: 'gpu' });
    expect(await dispatch(studio, 'job.cancel', { jobId: 'gpu' })).toEqual({ ok: true, value: { cancelled: true } });
    const result = await install;
    expect(result).toMatchObject({ ok: false, error: { message: expect.stringMatching(/install was cancelled/) } });
    expect(gpuRuntimeStatus()).toBe('not-installed');
    expect(new Set(kinds)).toEqual(new Set(['gpu-install']));
  });
});
