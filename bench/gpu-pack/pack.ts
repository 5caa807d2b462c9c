// `npm run bench:gpu:pack`: the GPU bench as one archive that runs on a machine with Python,
// PyTorch and transformers but no Node and no registry (the lent GPU machine): a Node binary, the
// bench bundled into one file with esbuild, the npm packages the bundle loads at run time
// (node-llama-cpp with its Linux x64 CPU and Vulkan builds, onnxruntime-node's Linux x64 binary),
// native/qwen35's checkpoint maker and GGUF converter, the `gguf` wheel they need, the Vulkan
// loader's Debian packages, and run.sh. Written to dist/gpu-pack/ (ignored), at most 60 MiB.
//
// Usage: tsx bench/gpu-pack/pack.ts [--out DIR] [--compression xz|zstd]

import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinModules } from 'node:module';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';
import { linkIdenticalFiles } from './dedupe';
import { packageClosure, packageName } from './package-closure';
import { PACK_LIMIT_BYTES, PACK_NAME } from './pack-layout';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));
/** The `gguf` wheel native/requirements.txt pins: what the converter is tested with here. */
const GGUF_PIN = /^gguf==(\S+)$/m;
/**
 * The Vulkan loader, and the GL dispatch libraries NVIDIA's Vulkan driver links against, which a
 * bare image may lack (the device notes name these). No Mesa: its software Vulkan is slower than
 * the CPU build and its LLVM alone would not fit.
 */
const DEBIAN_PACKAGES = ['libvulkan1', 'libglvnd0', 'libglx0', 'libegl1', 'libgl1', 'libgles2', 'libopengl0'];
const BUILTINS = new Set(builtinModules);
/** Resolved only when the code runs from its TypeScript sources (the model probe's child through tsx), never from the bundle. */
const SOURCE_ONLY = new Set(['tsx']);
/** node-llama-cpp's prebuilt builds carried: CPU and Vulkan (CUDA's is about 540 MB). */
const LLAMA_BUILDS = new Set(['@node-llama-cpp/linux-x64', '@node-llama-cpp/linux-x64-vulkan']);

function run(command: string, args: string[], options: { cwd?: string } = {}): string {
  const result = spawnSync(command, args, { cwd: options.cwd ?? ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw new Error(`${command} could not start: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${(result.stderr || result.stdout).trim().slice(-2000)}`);
  return result.stdout;
}

/** Files of a package that a Linux x64 run never reads: other platforms' binaries, llama.cpp's git history. */
function carried(source: string): boolean {
  const path = source.split(sep).join('/');
  const ort = /\/onnxruntime-node\/bin\/napi-v\d+\/([^/]+)(?:\/([^/]+))?/.exec(path);
  if (ort && (ort[1] !== 'linux' || (ort[2] !== undefined && ort[2] !== 'x64'))) return false;
  if (path.endsWith('/node-llama-cpp/llama/gitRelease.bundle')) return false;
  return true;
}

async function bundle(stage: string): Promise<Set<string>> {
  const result = await build({
    // The engines open a model file once in a child process first (src-main/engine/model-probe.ts),
    // which looks for model-probe-child.js beside the bundle that asks.
    entryPoints: { 'bench-gpu': join(ROOT, 'bench', 'gpu.ts'), 'model-probe-child': join(ROOT, 'src-main', 'engine', 'model-probe-child.ts') },
    outdir: stage,
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Packages stay packages: node-llama-cpp and onnxruntime-node find their binaries from their own folders.
    packages: 'external',
    metafile: true,
    logLevel: 'error',
  });
  const imported = new Set<string>();
  for (const input of Object.values(result.metafile.inputs)) {
    for (const entry of input.imports) {
      const name = entry.external ? packageName(entry.path) : null;
      if (name) imported.add(name);
    }
  }
  // Packages loaded through createRequire (koffi for the quantiser, the template sandbox's jinja)
  // are no imports esbuild can see: their names are read from the bundles' require/resolve calls
  // (esbuild renames a local `require` to `require2` and so on).
  for (const output of Object.keys(result.metafile.outputs)) {
    for (const match of readFileSync(join(ROOT, output), 'utf8').matchAll(/\b(?:require\d*|resolve)\(\s*["']([^"'./][^"']*)["']\s*\)/g)) {
      const name = packageName(match[1]!);
      if (name && !BUILTINS.has(name) && !SOURCE_ONLY.has(name)) imported.add(name);
    }
  }
  return imported;
}

function copyPackages(names: Set<string>, stage: string): string[] {
  const folders = packageClosure(names, ROOT, (name) => name.startsWith('@node-llama-cpp/') && !LLAMA_BUILDS.has(name));
  for (const folder of folders) {
    const source = join(ROOT, folder);
    // Nested node_modules are packages of their own in the closure, copied only where needed.
    cpSync(source, join(stage, folder), {
      recursive: true,
      filter: (path) => carried(path) && !(path !== source && relative(source, path).split(sep).includes('node_modules')),
    });
  }
  return folders;
}

function copyPython(stage: string): void {
  const source = join(ROOT, 'native', 'qwen35');
  const target = join(stage, 'python', 'qwen35');
  mkdirSync(target, { recursive: true });
  for (const name of readdirSync(source)) {
    if (/^test_/.test(name) || !/\.(py|txt|jinja)$/.test(name)) continue;
    copyFileSync(join(source, name), join(target, name));
  }
}

function downloadWheel(stage: string): string {
  const version = GGUF_PIN.exec(readFileSync(join(ROOT, 'native', 'requirements.txt'), 'utf8'))?.[1];
  if (!version) throw new Error('native/requirements.txt pins no gguf version (gguf==X.Y.Z)');
  const pip = join(ROOT, 'native', '.venv', 'bin', 'pip');
  const wheels = join(stage, 'wheels');
  mkdirSync(wheels, { recursive: true });
  run(statSync(pip, { throwIfNoEntry: false }) ? pip : 'pip3', ['download', '--no-deps', '--only-binary=:all:', '--retries', '0', '--timeout', '2', `gguf==${version}`, '-d', wheels]);
  return version;
}

function downloadDebs(stage: string): string[] {
  const debs = join(stage, 'debs');
  mkdirSync(debs, { recursive: true });
  const options = ['-o', 'APT::Architecture=amd64', '-o', 'APT::Architectures=amd64'];
  let result = spawnSync('apt-get', [...options, 'download', ...DEBIAN_PACKAGES], { cwd: debs, encoding: 'utf8' });
  if (result.status !== 0) {
    // A fresh container has no package lists yet.
    run('apt-get', [...options, 'update', '-qq']);
    result = spawnSync('apt-get', [...options, 'download', ...DEBIAN_PACKAGES], { cwd: debs, encoding: 'utf8' });
  }
  if (result.status !== 0) throw new Error(`apt-get download ${DEBIAN_PACKAGES.join(' ')} failed: ${(result.stderr || '').trim().slice(-1000)}`);
  return readdirSync(debs).sort();
}

function compress(outDir: string, compression: 'xz' | 'zstd'): string {
  const archive = join(outDir, `${PACK_NAME}.tar.${compression === 'xz' ? 'xz' : 'zst'}`);
  rmSync(archive, { force: true });
  // xz -6 on both cores: about 2 minutes here, and what makes the pack fit (zstd -19 is about as slow and larger).
  const compressor = compression === 'xz' ? 'xz -T2 -6' : 'zstd -q -T2 -19 --long=27';
  run('bash', ['-c', `set -o pipefail; tar -C "$1" --owner=0 --group=0 --sort=name -cf - ${PACK_NAME} | ${compressor} > "$2"`, 'pack', join(outDir, 'stage'), archive]);
  return archive;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string', default: join(ROOT, 'dist', 'gpu-pack') }, compression: { type: 'string', default: 'xz' } } });
  if (values.compression !== 'xz' && values.compression !== 'zstd') throw new Error(`--compression takes xz or zstd, not ${values.compression}`);
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`the pack carries Linux x64 builds and this Node (${process.platform}/${process.arch}); make it on Linux x64`);
  const outDir = resolve(values.out);
  const stage = join(outDir, 'stage', PACK_NAME);
  rmSync(join(outDir, 'stage'), { recursive: true, force: true });
  mkdirSync(join(stage, 'bin'), { recursive: true });

  const say = (line: string) => process.stderr.write(`bench:gpu:pack: ${line}\n`);
  // ES modules in .js files, as the probe expects its child's name.
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify({ name: PACK_NAME, private: true, type: 'module' }, null, 2)}\n`);
  const imported = await bundle(stage);
  say(`bundled bench/gpu.ts; it imports ${[...imported].sort().join(', ')}`);
  const folders = copyPackages(imported, stage);
  say(`carried ${folders.length} npm packages`);
  copyFileSync(process.execPath, join(stage, 'bin', 'node'));
  chmodSync(join(stage, 'bin', 'node'), 0o755);
  copyPython(stage);
  const gguf = downloadWheel(stage);
  const debs = downloadDebs(stage);
  say(`gguf ${gguf} wheel; ${debs.join(', ')}`);
  copyFileSync(join(HERE, 'run.sh'), join(stage, 'run.sh'));
  chmodSync(join(stage, 'run.sh'), 0o755);
  const manifest = {
    made: new Date().toISOString(),
    node: process.version,
    packages: Object.fromEntries(folders.map((folder) => [folder, (JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as { version: string }).version])),
    gguf,
    debs,
    commit: run('git', ['rev-parse', 'HEAD']).trim(),
  };
  writeFileSync(join(stage, 'pack.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const linked = linkIdenticalFiles(stage);
  say(`${linked.files} identical files linked (${(linked.bytes / 2 ** 20).toFixed(1)} MiB not stored twice); compressing`);
  const archive = compress(outDir, values.compression);
  // Beside the archive: the same run.sh, which unpacks the archive it sits next to and runs the one inside.
  copyFileSync(join(HERE, 'run.sh'), join(outDir, 'run.sh'));
  chmodSync(join(outDir, 'run.sh'), 0o755);
  rmSync(join(outDir, 'stage'), { recursive: true, force: true });
  const size = statSync(archive).size;
  const line = `${relative(ROOT, archive)}: ${(size / 2 ** 20).toFixed(1)} MiB of ${PACK_LIMIT_BYTES / 2 ** 20} MiB`;
  if (size > PACK_LIMIT_BYTES) throw new Error(`${line}: too big for a lent machine's run; carry less (see bench/gpu-pack/pack.ts)`);
  process.stdout.write(`${line}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:gpu:pack: ${(error as Error).message}\n`);
  process.exit(1);
});
