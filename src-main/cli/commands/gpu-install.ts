// `worldloom gpu-install` (npm run gpu:install): fetches onnxruntime's CUDA provider.
import type { Command } from 'commander';
import { withCore } from '../core';

export function registerGpuInstall(program: Command): void {
  program
    .command('gpu-install')
    .description("download onnxruntime-node's CUDA 12 runtime (Linux x64, NVIDIA GPU)")
    .action(() =>
      withCore({}, async (core) => {
        if ((await core.call('model.state', {})).gpuRuntime === 'installed') {
          process.stdout.write('The CUDA runtime is already installed.\n');
          return;
        }
        const jobId = 'cli-gpu-install';
        core.cancelOnInterrupt(jobId);
        // Each line the installer writes arrives as the job's progress.
        core.on('job.progress', (p) => {
          if (p.jobId === jobId && !p.finished && p.done > 0) process.stdout.write(`${p.label}\n`);
        });
        await core.call('model.installGpuRuntime', { jobId });
        process.stdout.write('CUDA runtime installed. Worldloom uses it the next time a model is loaded.\n');
      }),
    );
}
