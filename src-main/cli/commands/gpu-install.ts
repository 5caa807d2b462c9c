// `worldloom gpu-install [onnx-cuda|gguf-cuda]` (npm run gpu:install): GPU builds that a plain
// npm install leaves out. onnx-cuda: onnxruntime's CUDA provider; gguf-cuda: llama.cpp's CUDA
// build for GGUF models (node-llama-cpp's prebuilt packages, from the npm registry).
import type { Command } from 'commander';
import { withCore } from '../core';
import { ggufCudaStatus, installGgufCuda } from '../../engine/gguf/gpu-builds';
import { UserError } from '../../common/user-error';

export function registerGpuInstall(program: Command): void {
  program
    .command('gpu-install')
    .argument('[build]', 'onnx-cuda (onnxruntime-node\'s CUDA 12 runtime) or gguf-cuda (llama.cpp\'s CUDA build, ~580 MB from npm)', 'onnx-cuda')
    .description('install a GPU build a plain npm install leaves out (Linux/Windows x64, NVIDIA GPU)')
    .action(async (build: string) => {
      if (build === 'gguf-cuda') {
        if (ggufCudaStatus() === 'installed') {
          process.stdout.write("llama.cpp's CUDA build is already installed.\n");
          return;
        }
        const controller = new AbortController();
        process.once('SIGINT', () => controller.abort());
        const installed = await installGgufCuda((line) => process.stdout.write(`${line}\n`), controller.signal);
        process.stdout.write(`Installed ${installed.join(', ')}. GGUF models use CUDA the next time one is loaded (--device auto or cuda).\n`);
        return;
      }
      if (build !== 'onnx-cuda') throw new UserError(`gpu-install takes onnx-cuda or gguf-cuda, not "${build}".`);
      await withCore({}, async (core) => {
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
      });
    });
}
