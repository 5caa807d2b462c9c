// Every `worldloom` verb, by the name typed on the command line, as a dynamic import of the
// file that registers it. main.ts imports only the verb that was typed (all of them for help
// or an unknown verb), so `worldloom ls` never loads the engines and `--version` loads none;
// in the built CLI (build-cli.mjs) each entry here is a chunk of its own.
//
// Adding a verb: write commands/NAME.ts exporting registerNAME(program), then add one line
// here, keyed by the name its `.command(...)` gives (verbs.test.ts checks the two agree).
// The order is the order of `worldloom --help`.
import type { Command } from 'commander';

export type RegisterVerb = (program: Command) => void;

export const VERBS: Readonly<Record<string, () => Promise<RegisterVerb>>> = {
  serve: async () => (await import('./commands/serve')).registerServe,
  import: async () => (await import('./commands/import')).registerImport,
  export: async () => (await import('./commands/export')).registerExport,
  info: async () => (await import('./commands/info')).registerInfo,
  ls: async () => (await import('./commands/ls')).registerLs,
  curate: async () => (await import('./commands/curate')).registerCurate,
  simulate: async () => (await import('./commands/simulate')).registerSimulate,
  resample: async () => (await import('./commands/resample')).registerResample,
  'gpu-install': async () => (await import('./commands/gpu-install')).registerGpuInstall,
  eval: async () => (await import('./commands/eval')).registerEval,
  perturb: async () => (await import('./commands/perturb')).registerPerturb,
  record: async () => (await import('./commands/record')).registerRecord,
  replay: async () => (await import('./commands/replay')).registerReplay,
  'mcp-serve': async () => (await import('./commands/mcp-serve')).registerMcpServe,
  expand: async () => (await import('./commands/expand')).registerExpand,
  sessions: async () => (await import('./commands/sessions')).registerSessions,
  quantize: async () => (await import('./commands/quantize')).registerQuantize,
};

/**
 * The verbs to register for these arguments (argv without node and the script): the one typed
 * when it is known, none for `--version` alone, every one otherwise (help, a typo that commander
 * answers with the nearest name, no verb at all).
 */
export function verbsFor(args: readonly string[]): string[] {
  const first = args[0];
  if (first !== undefined && Object.hasOwn(VERBS, first)) return [first];
  if (args.length === 1 && (first === '-V' || first === '--version')) return [];
  return Object.keys(VERBS);
}
