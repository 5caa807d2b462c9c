// The layouts each fine-tuning framework documents for its input, as zod schemas. The
// readers validate what they read back with them, and the tests check every export
// against them (no Python here, so `datasets` itself cannot be run in CI).
import { z } from 'zod';

/** An assistant's tool call as transformers chat templates and TRL take it (arguments as a JSON object in a string). */
export const ToolCallSchema = z
  .object({
    type: z.literal('function'),
    function: z.object({ name: z.string().min(1), arguments: z.string().refine(isJsonObject, 'arguments must be a JSON object, as a string') }).strict(),
  })
  .strict();

/** A tool's schema (OpenAI function form), as TRL's `tools` and ms-swift's `tools` hold it. */
export const ToolSchemaSchema = z
  .object({ type: z.literal('function'), function: z.object({ name: z.string().min(1), description: z.string(), parameters: z.record(z.string(), z.unknown()) }).strict() })
  .strict();

/** The `tools` column: a JSON string of tool schemas (ms-swift requires a string; TRL parses one). */
export const ToolsColumnSchema = z.string().refine((text) => {
  try {
    return z.array(ToolSchemaSchema).min(1).safeParse(JSON.parse(text)).success;
  } catch {
    return false;
  }
}, 'tools must be a JSON string holding a list of {type: "function", function: {name, description, parameters}}');

function isJsonObject(text: string): boolean {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

/** TRL / ms-swift conversational messages: `{role, content}`, plus reasoning, tool calls and tool results. */
export const ChatMessageSchema = z
  .object({
    role: z.enum(['system', 'user', 'assistant', 'tool']),
    content: z.string(),
    /** Qwen-family chat templates (used through TRL) render it inside <think>…</think>. */
    reasoning_content: z.string().optional(),
    tool_calls: z.array(ToolCallSchema).min(1).optional(),
    /** A tool result names its tool. */
    name: z.string().optional(),
  })
  .strict()
  .refine((m) => m.tool_calls === undefined || m.role === 'assistant', 'only assistant turns call tools')
  .refine((m) => (m.role === 'tool') === (m.name !== undefined), 'a tool result, and only a tool result, names its tool');

const conversationChecks = <T extends z.ZodType<{ role: string; tool_calls?: unknown }[]>>(messages: T) =>
  messages.refine((list) => list.every((m, i) => m.role !== 'system' || i === 0), 'only the first message may be the system prompt');

const hasToolCalls = (messages: readonly { tool_calls?: unknown }[]) => messages.some((m) => m.tool_calls !== undefined);

export const MessagesRowSchema = z
  .object({ messages: conversationChecks(z.array(ChatMessageSchema).min(2)), tools: ToolsColumnSchema.optional() })
  .strict()
  .refine((row) => row.messages.some((m) => m.role === 'assistant'), 'a conversation needs an assistant turn to train on')
  .refine((row) => !hasToolCalls(row.messages) || row.tools !== undefined, 'a conversation with tool calls carries its tools');

/** TRL conversational prompt/completion rows: the loss is on the completion only (completion_only_loss). */
export const PromptCompletionRowSchema = z
  .object({
    prompt: conversationChecks(z.array(ChatMessageSchema).min(1)),
    completion: z.array(ChatMessageSchema).length(1),
    tools: ToolsColumnSchema.optional(),
  })
  .strict()
  .refine((row) => row.prompt.at(-1)!.role === 'user' || row.prompt.at(-1)!.role === 'tool', 'the prompt ends with what the model answers')
  .refine((row) => row.completion[0]!.role === 'assistant', 'the completion is one assistant turn')
  .refine((row) => !hasToolCalls([...row.prompt, ...row.completion]) || row.tools !== undefined, 'a conversation with tool calls carries its tools');

/** TRL conversational preference rows (DPO): one prompt, a chosen and a rejected assistant turn. */
export const PreferenceRowSchema = z
  .object({
    prompt: conversationChecks(z.array(ChatMessageSchema).min(1)),
    chosen: z.array(ChatMessageSchema).length(1),
    rejected: z.array(ChatMessageSchema).length(1),
  })
  .strict()
  .refine((row) => row.prompt.at(-1)!.role === 'user', 'the prompt ends with the user turn both answers reply to')
  .refine((row) => row.chosen[0]!.role === 'assistant' && row.rejected[0]!.role === 'assistant', 'chosen and rejected are assistant turns')
  .refine((row) => row.chosen[0]!.content !== row.rejected[0]!.content, 'chosen and rejected differ');

const ShareGptTurnSchema = z.object({ from: z.enum(['human', 'gpt', 'observation', 'function_call']), value: z.string() }).strict();
const isFunctionCall = (value: string) => {
  try {
    const v = JSON.parse(value) as { name?: unknown; arguments?: unknown };
    return typeof v.name === 'string' && typeof v.arguments === 'object' && v.arguments !== null;
  } catch {
    return false;
  }
};
/** LLaMA-Factory's tools column: a JSON string of a list of function schemas (its formatter also takes the OpenAI wrapper). */
const ShareGptToolsSchema = ToolsColumnSchema;

/** LLaMA-Factory ShareGPT: human/observation at odd positions, gpt/function_call at even ones (1-based). */
export const ShareGptRowSchema = z
  .object({
    conversations: z.array(ShareGptTurnSchema).min(2),
    system: z.string().optional(),
    tools: ShareGptToolsSchema.optional(),
  })
  .strict()
  .refine((row) => row.conversations.every((t) => t.from !== 'function_call' || isFunctionCall(t.value)), 'a function_call value is JSON {"name", "arguments"}')
  .refine((row) => !row.conversations.some((t) => t.from === 'function_call') || row.tools !== undefined, 'a conversation with function calls carries its tools')
  .refine(
    (row) =>
      row.conversations.length % 2 === 0 &&
      row.conversations.every((turn, i) => (i % 2 === 0 ? turn.from === 'human' || turn.from === 'observation' : turn.from === 'gpt' || turn.from === 'function_call')),
    'turns must alternate human/observation then gpt/function_call, in pairs (LLaMA-Factory drops rows that do not)',
  );

/** LLaMA-Factory ShareGPT ranking rows (DPO, reward models): the prompt turns, then a chosen and a rejected gpt turn. */
export const ShareGptRankingRowSchema = z
  .object({
    conversations: z.array(ShareGptTurnSchema).min(1),
    chosen: ShareGptTurnSchema,
    rejected: ShareGptTurnSchema,
    system: z.string().optional(),
  })
  .strict()
  .refine(
    (row) => row.conversations.length % 2 === 1 && row.conversations.every((t, i) => (i % 2 === 0 ? t.from === 'human' || t.from === 'observation' : t.from === 'gpt' || t.from === 'function_call')),
    'prompt turns alternate and end with a human turn, which chosen and rejected answer',
  )
  .refine((row) => row.chosen.from === 'gpt' && row.rejected.from === 'gpt' && row.chosen.value !== row.rejected.value, 'chosen and rejected are different gpt turns');

/** One entry of LLaMA-Factory's dataset_info.json for a ShareGPT file. */
export const DatasetInfoEntrySchema = z.object({
  file_name: z.string().min(1),
  formatting: z.literal('sharegpt'),
  ranking: z.boolean().optional(),
  columns: z.object({
    messages: z.string(),
    system: z.string().optional(),
    tools: z.string().optional(),
    chosen: z.string().optional(),
    rejected: z.string().optional(),
  }),
  tags: z.object({ role_tag: z.string(), content_tag: z.string(), user_tag: z.string(), assistant_tag: z.string() }).partial().optional(),
});
export const DatasetInfoSchema = z.record(z.string().regex(/^[A-Za-z0-9._-]+$/), DatasetInfoEntrySchema);

/** A Hugging Face dataset card's YAML `configs`: data files per split. */
export const CardConfigsSchema = z
  .array(
    z.object({
      config_name: z.string().min(1),
      data_files: z.array(z.object({ split: z.string().regex(/^\w+$/), path: z.string().min(1) })).min(1),
      default: z.boolean().optional(),
    }),
  )
  .min(1);

/** A Parquet row as `datasets` exposes it: every column one stable type in every row. */
export const ParquetRowSchema = z
  .object({
    messages: z.array(z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string(), reasoning_content: z.string().optional() }).strict()).min(2),
    id: z.string(),
    trajectory_id: z.string(),
    title: z.string(),
    domain: z.string(),
    origin: z.string(),
    perturbations: z.string(),
    created_at: z.string(),
  })
  .strict();

/** AgentWorldBench lines (the same layout Worldloom imports). */
export const AgentWorldBenchLineSchema = z
  .object({
    task: z.string(),
    id: z.union([z.string(), z.number()]),
    prompt: z.array(z.string()).min(1),
    response: z.array(z.string().startsWith('**Environment Observation:**')),
    current_prompt: z.string(),
    system_str: z.string(),
    turn_idx: z.number().int().min(1),
    total_turns: z.number().int().min(1),
  })
  .strict()
  .refine((l) => l.prompt.length === l.response.length && l.total_turns === l.prompt.length && l.turn_idx <= l.total_turns, 'turn lists and counts must agree')
  .refine((l) => l.current_prompt === l.prompt[l.turn_idx - 1], 'current_prompt must be the turn_idx-th prompt');
