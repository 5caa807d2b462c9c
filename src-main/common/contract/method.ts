// One contract method: the schema of its input and of its output.
import type { z } from 'zod';

export function method<I extends z.ZodType, O extends z.ZodType>(input: I, output: O) {
  return { input, output };
}
