// Parsers for option values that commander hands over as strings. A value out of range
// throws InvalidArgumentError, which commander reports with the option's name and the value.
import { MAX_CONCURRENCY } from '../common/contract/simulation';
import { InvalidArgumentError } from 'commander';
import { DEVICE_CHOICES } from '../common/device';

/** A whole number from `min` to `max`; without `max`, any from `min` up. */
export function wholeNumber(min: number, max?: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || (max !== undefined && n > max)) {
      throw new InvalidArgumentError(max === undefined ? `expected a whole number ≥ ${min}` : `expected a whole number from ${min} to ${max}`);
    }
    return n;
  };
}

/** Any number from `min` to `max`, fractions included. */
export function numberBetween(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min || n > max) throw new InvalidArgumentError(`expected a number from ${min} to ${max}`);
    return n;
  };
}

/** A sampling temperature; 0 is greedy. */
export function temperature(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 5) throw new InvalidArgumentError('expected a number from 0 (greedy) to 5');
  return n;
}

/** One of the given words, as written. */
export function oneOf<T extends string>(values: readonly T[]): (value: string) => T {
  return (value) => {
    if (!(values as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected one of ${values.join(', ')}`);
    return value as T;
  };
}

/** `--device`: where an in-process model runs (common/device.ts), for every verb that takes `--model`. */
export const deviceChoice = oneOf(DEVICE_CHOICES);
export const DEVICE_OPTION_HELP =
  `where an in-process model runs: ${DEVICE_CHOICES.join('|')} (default auto: CUDA when installed, then a hardware ` +
  'WebGPU adapter, then the CPU; software adapters such as llvmpipe only when named)';
/** `--threads`: CPU threads of an in-process model, beside `--device` on every verb that takes `--model`. */
export const cpuThreads = wholeNumber(1, 1024);
export const THREADS_OPTION_HELP =
  'CPU threads of an in-process model (default: ONNX Runtime its own; GGUF all cores but one, counted within a container\'s CPU quota)';

/** `--adapter`: a LoRA adapter over a .gguf model, beside `--model` on every verb that takes it. */
export const ADAPTER_OPTION_HELP =
  'a GGUF LoRA adapter applied over a .gguf --model (python -m qwen35.lora_convert writes one from a PEFT adapter)';

/** `--concurrency`: requests the model takes at once, beside `--device` on every verb that takes `--model`. */
export const concurrencyLimit = wholeNumber(1, MAX_CONCURRENCY);
export const CONCURRENCY_OPTION_HELP =
  'requests the model works on at once: a server\'s requests in flight (default 16), a .gguf model\'s parallel sequences ' +
  '(default 8); remembered with the workspace. An ONNX folder runs one step at a time';
