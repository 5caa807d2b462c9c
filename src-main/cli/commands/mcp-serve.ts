// `worldloom mcp-serve`: a trajectory's environment as MCP tools, each call simulated by the
// world model and recorded as a node of the calling session's path. Over stdio stdout is
// the MCP channel, so everything this verb says goes to stderr.
import type { Command } from 'commander';
import type { DeviceChoice } from '../../common/device';
import { withCore } from '../core';
import { cpuThreads, DEVICE_OPTION_HELP, deviceChoice, oneOf, wholeNumber, THREADS_OPTION_HELP, CONCURRENCY_OPTION_HELP, concurrencyLimit, ADAPTER_OPTION_HELP } from '../option-parsers';
import { addSamplingOptions, samplingOverrides, type SamplingFlags } from '../sampling-options';

interface McpServeFlags extends SamplingFlags {
  workspace: string;
  trajectory: string;
  node?: string;
  perturb?: string;
  perturbMode: 'transform' | 'instruction';
  seed: number;
  http?: number;
  token?: string;
  model?: string;
  device?: DeviceChoice;
  threads?: number;
  concurrency?: number;
  adapter?: string;
}

export function registerMcpServe(program: Command): void {
  const command = program
    .command('mcp-serve')
    .description("serve a trajectory's environment as MCP tools (stdio, or --http PORT): every call is simulated and recorded as a node")
    .requiredOption('-w, --workspace <file>', 'workspace file')
    .requiredOption('--trajectory <id>', 'trajectory whose environment to serve')
    .option('-n, --node <id>', 'node every session starts from (default: the initial state)')
    .option('--perturb <kind:rate,…>', 'inject perturbations at these rates, e.g. terminal.command-not-found:0.2,terminal.disk-full:0.1')
    .option('--perturb-mode <mode>', 'transform: change the observation; instruction: the world model plays the condition out', oneOf(['transform', 'instruction'] as const), 'transform')
    .option('-s, --seed <n>', 'seed of the perturbation schedule (same seed, same injections)', wholeNumber(0, 2 ** 31 - 1), 0)
    .option('--http <port>', 'serve Streamable HTTP on 127.0.0.1:PORT (0: any free port) instead of stdio', wholeNumber(0, 65535))
    .option('--token <token>', 'the HTTP token (default: a random one, printed)')
    .option('-m, --model <dir|file.gguf|url>', 'world model folder, .gguf file or OpenAI-compatible endpoint (default: the embedded model)')
    .option('--device <device>', DEVICE_OPTION_HELP, deviceChoice)
    .option('--threads <n>', THREADS_OPTION_HELP, cpuThreads)
    .option('--adapter <file.gguf>', ADAPTER_OPTION_HELP)
    .option('--concurrency <n>', CONCURRENCY_OPTION_HELP, concurrencyLimit);
  addSamplingOptions(command, { seed: false }).action((opts: McpServeFlags) =>
    withCore({ workspace: { path: opts.workspace }, model: opts.model ?? null, device: opts.device, threads: opts.threads, concurrency: opts.concurrency, adapter: opts.adapter }, async (core) => {
      // Loaded here, not with the CLI: the MCP SDK takes a large part of a second to load, which every other verb would pay.
      const [{ SimulatedEnvironment }, { startMcpHttp }, { StdioServerTransport }] = await Promise.all([
        import('../../agents/simulated-environment'),
        import('../../host/mcp-http'),
        import('@modelcontextprotocol/sdk/server/stdio.js'),
      ]);
      const environment = new SimulatedEnvironment(core.studio, {
        trajectoryId: opts.trajectory,
        nodeId: opts.node,
        perturb: opts.perturb,
        perturbMode: opts.perturbMode,
        seed: opts.seed,
        sampling: samplingOverrides(opts),
      });
      const say = (line: string) => process.stderr.write(`${line}\n`);
      environment.onCall((call) => {
        const where = call.node ? `node ${call.node.id}${call.node.provenance.perturbations ? ' (perturbed)' : ''}` : `failed: ${call.error}`;
        say(`[${call.session.slice(0, 8)}] ${call.tool}: ${call.action.slice(0, 120)} → ${where}`);
      });
      const tools = environment.tools.tools.map((t) => t.name).join(', ');
      say(`Serving "${environment.trajectory.title}" (${environment.trajectory.domain}) as MCP tools: ${tools}. Sessions start at node ${environment.startNode.id}.`);
      await new Promise<void>((done) => {
        const stop = () => done();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
        if (opts.http !== undefined) {
          void startMcpHttp(environment, { port: opts.http, token: opts.token }).then((http) => {
            say(`MCP endpoint: ${http.endpoint} (send "Authorization: Bearer ${http.token}")`);
            process.stdout.write(`${JSON.stringify({ endpoint: http.endpoint, token: http.token, url: http.url })}\n`);
            const close = () => void http.close().then(done);
            process.removeListener('SIGINT', stop);
            process.removeListener('SIGTERM', stop);
            process.once('SIGINT', close);
            process.once('SIGTERM', close);
          }, (err: unknown) => {
            say(`worldloom: could not listen on 127.0.0.1:${opts.http}: ${(err as Error).message}`);
            process.exitCode = 1;
            done();
          });
          return;
        }
        const transport = new StdioServerTransport();
        transport.onclose = stop;
        process.stdin.once('end', stop);
        void environment.createServer().connect(transport);
      });
    }),
  );
}
