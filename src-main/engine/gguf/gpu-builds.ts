// llama.cpp's CUDA build on demand. package.json overrides node-llama-cpp's CUDA prebuilt
// packages (about 580 MB) with an empty stand-in so a plain npm install stays lean; this puts
// the real packages in their place, fetched from the npm registry by npm itself (`npm pack`)
// at the exact version of the installed node-llama-cpp. A later `npm ci` brings the stand-in
// back; run `worldloom gpu-install gguf-cuda` again after it.

import { spawn } from 'node:child_process';
import { cpSync, lstatSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { prebuiltInstalled } from './llama-backend';

const require = createRequire(import.meta.url);

/** The CUDA packages node-llama-cpp imports on this platform (the -ext one adds more GPU architectures). */
export function cudaPackages(): string[] | null {
  if (process.arch !== 'x64') return null;
  if (process.platform === 'linux') return ['@node-llama-cpp/linux-x64-cuda', '@node-llama-cpp/linux-x64-cuda-ext'];
  if (process.platform === 'win32') return ['@node-llama-cpp/win-x64-cuda', '@node-llama-cpp/win-x64-cuda-ext'];
  return null;
}

export function ggufCudaStatus(): 'installed' | 'not-installed' | 'unsupported-platform' {
  if (!cudaPackages()) return 'unsupported-platform';
  return prebuiltInstalled('cuda') ? 'installed' : 'not-installed';
}

function run(command: string, args: string[], cwd: string, onOutput: (line: string) => void, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal, shell: process.platform === 'win32' });
    let out = '';
    child.stdout.on('data', (data: Buffer) => (out += data.toString()));
    child.stderr.on('data', (data: Buffer) => {
      for (const line of data.toString().split('\n')) if (line.trim()) onOutput(line.trim());
    });
    child.on('error', (error) => reject(signal?.aborted ? new Error('The install was cancelled; run it again to install.') : error));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}

/** Fetches and unpacks the CUDA build into node_modules; resolves with what was installed. */
export async function installGgufCuda(onOutput: (line: string) => void, signal?: AbortSignal): Promise<string[]> {
  const packages = cudaPackages();
  if (!packages) {
    throw new Error(`node-llama-cpp has no CUDA build for ${process.platform}/${process.arch}; on macOS the Metal build is already installed.`);
  }
  const nodeLlamaCpp = dirname(require.resolve('node-llama-cpp/package.json'));
  const version = (JSON.parse(readFileSync(join(nodeLlamaCpp, 'package.json'), 'utf8')) as { version: string }).version;
  const scope = join(nodeLlamaCpp, '..', '@node-llama-cpp');
  const scratch = mkdtempSync(join(tmpdir(), 'worldloom-gguf-cuda-'));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  try {
    for (const name of packages) {
      onOutput(`npm pack ${name}@${version}`);
      const packed = JSON.parse(await run(npm, ['pack', `${name}@${version}`, '--json', '--pack-destination', scratch], scratch, onOutput, signal)) as { filename: string }[];
      const tarball = join(scratch, packed[0]!.filename);
      await run('tar', ['-xzf', tarball, '-C', scratch], scratch, onOutput, signal);
      const target = join(scope, name.split('/')[1]!);
      // The stand-in is a link to native/gguf-build-absent: remove the link, never what it points to.
      try {
        if (lstatSync(target).isSymbolicLink()) unlinkSync(target);
        else rmSync(target, { recursive: true, force: true });
      } catch {
        // absent: nothing to replace
      }
      cpSync(join(scratch, 'package'), target, { recursive: true });
      rmSync(join(scratch, 'package'), { recursive: true, force: true });
      onOutput(`installed ${name}@${version}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  if (!prebuiltInstalled('cuda')) throw new Error('The CUDA build was unpacked but node-llama-cpp does not see it; run npm ci, then this again.');
  return packages.map((name) => `${name}@${version}`);
}
