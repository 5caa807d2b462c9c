// Chat messages in the form TRL, transformers chat templates and ms-swift document: an
// assistant turn's reasoning in `reasoning_content` (or inline <think>), its action as
// `tool_calls: [{type: "function", function: {name, arguments}}]`, tool results as
// `{"role": "tool", "name", "content"}`, and the tools as a JSON string (TRL parses it;
// ms-swift requires it). Arguments are a JSON string too: Arrow gives every row one type,
// and calls of different tools would otherwise become one struct padded with nulls.
import type { ExampleMessage, ToolCall, ToolSchema } from '../example';
import { splitInlineReasoning, withInlineReasoning, type WriteContext } from './dataset-format';

export interface ChatRowMessage {
  role: string;
  content: string;
  reasoning_content?: string;
  tool_calls?: { type: 'function'; function: { name: string; arguments: string } }[];
  name?: string;
}

export function chatRowMessage(m: ExampleMessage, context: Pick<WriteContext, 'reasoning' | 'reasoningStyle'>): ChatRowMessage {
  if (m.role === 'tool') return { role: 'tool', name: m.name ?? '', content: m.content };
  if (m.role !== 'assistant') return { role: m.role, content: m.content };
  const calls = m.toolCalls?.map((c) => ({ type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.arguments) } }));
  // A tool-calling turn says nothing besides its call: the call is the action.
  const content = calls ? '' : m.content;
  let row: ChatRowMessage;
  if (!context.reasoning) row = { role: m.role, content };
  else if (context.reasoningStyle === 'inline') row = { role: m.role, content: withInlineReasoning(content, m.reasoning) };
  // Every assistant turn gets the field, empty when it has none, so the column type never changes.
  else row = { role: m.role, content, reasoning_content: m.reasoning ?? '' };
  if (calls) row.tool_calls = calls;
  return row;
}

export function chatRowMessages(messages: readonly ExampleMessage[], context: Pick<WriteContext, 'reasoning' | 'reasoningStyle'>): ChatRowMessage[] {
  const out: ChatRowMessage[] = new Array(messages.length);
  for (let i = 0; i < messages.length; i++) out[i] = chatRowMessage(messages[i]!, context);
  return out;
}

/** The action text of a call, as the builders wrote it into the message's content. */
function callArguments(text: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('tool call arguments must be a JSON object');
  return parsed as Record<string, unknown>;
}

/** Reads a row message back; `actionOf` gives the action text of a call (the content a tool-calling turn stands for). */
export function exampleMessageFromRow(m: ChatRowMessage, actionOf: (call: ToolCall) => string): ExampleMessage {
  const role = m.role as ExampleMessage['role'];
  if (role === 'tool') return { role, name: m.name ?? '', content: m.content };
  let content = m.content;
  let reasoning: string | undefined;
  if (m.reasoning_content !== undefined) reasoning = m.reasoning_content === '' ? undefined : m.reasoning_content;
  else if (role === 'assistant') ({ content, reasoning } = splitInlineReasoning(m.content));
  const message: ExampleMessage = { role, content };
  if (reasoning !== undefined) message.reasoning = reasoning;
  if (m.tool_calls) {
    message.toolCalls = m.tool_calls.map((c) => ({ name: c.function.name, arguments: callArguments(c.function.arguments) }));
    message.content = actionOf(message.toolCalls[0]!);
  }
  return message;
}

export const toolsColumn = (tools: readonly ToolSchema[]) => JSON.stringify(tools);
