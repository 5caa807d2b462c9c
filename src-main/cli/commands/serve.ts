// `worldloom serve`: the host door for a browser.
import type { Command } from 'commander';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startHost } from '../../host/server';
import { startOpenAiDoor, type OpenAiFlags } from '../../host/openai-door';
import { openDemoWorkspace } from '../../service/demo-workspace';
import { Studio } from '../../service/studio';
import type { DeviceChoice } from '../../common/device';
import { modelSpecFromOptions } from '../model-argument';
import { cpuThreads, DEVICE_OPTION_HELP, deviceChoice, wholeNumber, THREADS_OPTION_HELP, CONCURRENCY_OPTION_HELP, concurrencyLimit, ADAPTER_OPTION_HELP } from '../option-parsers';
import { PROJECT_ROOT, RENDERER_DIR, RESOURCES_DIR } from '../paths';

function ensureRendererBuilt(): void {
  if (existsSync(join(RENDERER_DIR, 'index.html'))) return;
  process.stderr.write('The UI is not built yet; building it once (this takes a minute)…\n');
  const bin = join(PROJECT_ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const run = spawnSync(process.execPath, [bin, 'build'], { cwd: PROJECT_ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (run.status !== 0) throw new Error('Building the UI failed (see above). Run `npm run build` to see the full output.');
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('serve the studio UI and API on 127.0.0.1 for a browser')
    .option('-w, --workspace <file>', 'workspace file to open (created if missing; default: the demo workspace)')
    .option('-p, --port <n>', 'port (default: any free port)', wholeNumber(0, 65535), 0)
    .option('-m, --model <dir|file.gguf|url>', 'world model folder, .gguf file or OpenAI-compatible endpoint (default: the embedded model)')
    .option('--device <device>', DEVICE_OPTION_HELP, deviceChoice)
    .option('--threads <n>', THREADS_OPTION_HELP, cpuThreads)
    .option('--adapter <file.gguf>', ADAPTER_OPTION_HELP)
    .option('--concurrency <n>', CONCURRENCY_OPTION_HELP, concurrencyLimit)
    .option('--openai', 'also serve the loaded model as an OpenAI-compatible API (/v1/models, /v1/chat/completions) on 127.0.0.1 with a key')
    .option('--openai-port <n>', 'port of the OpenAI-compatible API (default: any free port)', wholeNumber(0, 65535), 0)
    .option('--openai-key <key>', 'the API key clients send as Bearer (default: $WORLDLOOM_OPENAI_KEY, else a random one, printed)')
    .option('--record-to <workspace>', 'record every API request into this workspace file, as paths of one trajectory per conversation')
    .action(async (opts: { workspace?: string; port: number; model?: string; device?: DeviceChoice; threads?: number; concurrency?: number; adapter?: string } & OpenAiFlags) => {
      ensureRendererBuilt();
      const studio = new Studio({ door: 'host', resourcesDir: RESOURCES_DIR });
      // Without --workspace the studio opens the demo workspace, ready to simulate.
      if (opts.workspace) studio.openWorkspace(opts.workspace, 'open-or-create');
      else openDemoWorkspace(studio);
      await studio.loadModel(modelSpecFromOptions(opts.model, { device: opts.device, threads: opts.threads, concurrency: opts.concurrency, adapter: opts.adapter }) ?? undefined);
      const host = await startHost({ studio, rendererDir: RENDERER_DIR, port: opts.port });
      process.stdout.write(`Worldloom is serving at ${host.url}\n`);
      // Both names reach it; another machine reaches it through an SSH tunnel to this port.
      process.stdout.write(`(also at http://localhost:${host.port}/?token=${host.token}; from another machine: ssh -L ${host.port}:127.0.0.1:${host.port} this-host, then open the link)\n`);
      const api = opts.openai ? await startOpenAiDoor(studio, opts) : null;
      const stop = async () => {
        await api?.close();
        await host.close();
        await studio.dispose();
        process.exit(0);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
}
