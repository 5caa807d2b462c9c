// One line of an AgentWorldBench file and the domain it names: read by the importer
// (formats/agentworldbench/) and by the evaluation, which scores a model on such files.
import { z } from 'zod';
import { DOMAINS, type Domain } from '../common/trajectory/model';

/** One line of an AgentWorldBench file: one evaluated turn, carrying its whole trajectory. */
export const AwbLine = z.object({
  task: z.string(),
  id: z.union([z.string(), z.number()]),
  prompt: z.array(z.string()).min(1),
  response: z.array(z.string()),
  current_prompt: z.string().optional(),
  system_str: z.string(),
  turn_idx: z.number().int().min(1).optional(),
  total_turns: z.number().int().min(1).optional(),
});
export type AwbLine = z.infer<typeof AwbLine>;

/** The domain named by `task` ("prefix/terminal" → terminal), else by a `<domain>_test.jsonl` file name. */
export function domainOf(task: string, fileName: string): Domain | undefined {
  const fromTask = task.split('/').pop()!.trim().toLowerCase();
  if ((DOMAINS as readonly string[]).includes(fromTask)) return fromTask as Domain;
  const fromFile = /(?:^|[\\/])([a-z]+)_test\.jsonl$/i.exec(fileName)?.[1]?.toLowerCase();
  if (fromFile && (DOMAINS as readonly string[]).includes(fromFile)) return fromFile as Domain;
  return undefined;
}
