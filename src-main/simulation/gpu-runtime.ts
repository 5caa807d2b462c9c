// The CUDA runtime for onnxruntime-node is a separate download (its install step is
// denied by allowScripts in package.json because most machines have no NVIDIA GPU). `npm run gpu:install` and
// the model panel's button fetch it on demand.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

function onnxruntimeDir(): string {
  return dirname(require.resolve('onnxruntime-node/package.json'));
}

export function gpuRuntimeStatus(): 'installed' | 'not-installed' | 'unsupported-platform' {
  if (process.platform !== 'linux' || process.arch !== 'x64') return 'unsupported-platform';
  const bin = join(onnxruntimeDir(), 'bin', 'napi-v6', 'linux', 'x64', 'libonnxruntime_providers_cuda.so');
  return existsSync(bin) ? 'installed' : 'not-installed';
}

/** Runs onnxruntime-node's own installer for the CUDA 12 provider, streaming its output. */
/** Runs onnxruntime-node's installer for the CUDA runtime; `signal` stops it (job.cancel). */
export function installGpuRuntime(onOutput: (line: string) => void, signal?: AbortSignal): Promise<string> {
  if (gpuRuntimeStatus() === 'unsupported-platform') {
    return Promise.reject(
      new Error(
        `onnxruntime-node ships no separate CUDA runtime for ${process.platform}/${process.arch}. ` +
          'On Windows the DirectML provider is built in; on macOS CoreML is.',
      ),
    );
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(onnxruntimeDir(), 'script', 'install.js')], {
      env: { ...process.env, ONNXRUNTIME_NODE_INSTALL: 'cuda12' },
      stdio: ['ignore', 'pipe', 'pipe'],
      signal,
    });
    let log = '';
    const take = (data: Buffer) => {
      const text = data.toString();
      log += text;
      for (const line of text.split('\n')) if (line.trim()) onOutput(line.trim());
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const cancelled = () => new Error('The CUDA runtime install was cancelled; run it again to install.');
    child.on('error', (err) => reject(signal?.aborted ? cancelled() : err));
    child.on('exit', (code) => {
      if (signal?.aborted) reject(cancelled());
      else if (code === 0 && gpuRuntimeStatus() === 'installed') resolve(log);
      else
        reject(
          new Error(
            `Installing the CUDA runtime failed (exit ${code}). It needs internet access and an NVIDIA driver with CUDA 12; ` +
              `details:\n${log.slice(-2000)}`,
          ),
        );
    });
  });
}
