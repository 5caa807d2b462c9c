// `worldloom quantize IN.gguf OUT.gguf --type q4_k_m`: a GGUF file the user already has, made
// smaller with the llama.cpp that node-llama-cpp ships (engine/gguf/quantize.ts). Progress goes
// to stderr, one line per tensor on a terminal and a few lines otherwise; the result is a
// line of JSON on stdout, so `model:convert --to gguf --type …` can call this verb too.
import type { Command } from 'commander';
import { UserError } from '../../common/user-error';
import { QUANT_TYPES, isQuantType, quantizeGguf, type QuantType } from '../../engine/gguf/quantize';

const TYPES = Object.keys(QUANT_TYPES).join(', ');

export function registerQuantize(program: Command): void {
  program
    .command('quantize')
    .argument('<input>', 'the .gguf file to read (kept as it is)')
    .argument('<output>', 'the .gguf file to write')
    .requiredOption('--type <type>', `quantisation: ${TYPES}`)
    .option('--threads <n>', 'CPU threads (default: all)')
    .description("write a GGUF file in another quantisation (Q4_K_M, Q5_K_M, Q6_K, Q8_0, F16, F32) with node-llama-cpp's llama.cpp")
    .action(async (input: string, output: string, opts: { type: string; threads?: string }) => {
      if (!isQuantType(opts.type)) throw new UserError(`--type takes one of ${TYPES}, not "${opts.type}".`);
      const threads = opts.threads === undefined ? undefined : Number(opts.threads);
      if (threads !== undefined && (!Number.isInteger(threads) || threads < 1)) throw new UserError(`--threads takes a whole number of 1 or more, not "${opts.threads}".`);
      const type = opts.type.toLowerCase() as QuantType;
      const controller = new AbortController();
      process.once('SIGINT', () => {
        // llama.cpp cannot be stopped mid-file; the partial output is removed on exit.
        controller.abort();
        process.stderr.write('\ncancelling: the partial file is removed when llama.cpp finishes the tensor in hand\n');
      });
      let lastShown = -1;
      const result = await quantizeGguf(input, output, type, {
        threads,
        signal: controller.signal,
        onProgress: ({ tensor, tensors, name }) => {
          const tenth = Math.floor((tensor * 10) / tensors);
          if (process.stderr.isTTY) process.stderr.write(`\rquantising tensor ${tensor}/${tensors} ${name.padEnd(40).slice(0, 40)}`);
          else if (tenth !== lastShown) process.stderr.write(`quantising tensor ${tensor}/${tensors}\n`);
          lastShown = tenth;
        },
      });
      if (process.stderr.isTTY) process.stderr.write('\n');
      process.stderr.write(`wrote ${result.path}: ${type}, ${(result.bytes / 1e6).toFixed(1)} MB from ${(result.inputBytes / 1e6).toFixed(1)} MB in ${result.seconds.toFixed(1)} s\n`);
      process.stdout.write(JSON.stringify(result) + '\n');
    });
}
