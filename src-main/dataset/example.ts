// A training example as Worldloom exports it: chat messages plus where they came from.
// Pure. Every format writes these and every reader gives them back.
import type { Domain, Origin } from '../common/trajectory/model';

/** A call of one of the example's tools, as the agent made it. */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** A tool the agent may call: OpenAI-style function schema, as chat templates take it. */
export interface ToolSchema {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ExampleMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  /** For an assistant turn with tool calls: the action as plain text, for formats that have no tool calls. */
  content: string;
  /** The reasoning before an assistant turn (the world model's, or in agent examples the agent's own). */
  reasoning?: string;
  /** Agent examples: the action as a tool call. */
  toolCalls?: ToolCall[];
  /** A tool result: the tool that answered. */
  name?: string;
}

export type Split = 'train' | 'validation';
export const SPLITS: readonly Split[] = ['train', 'validation'];

export interface DatasetExample {
  /** The id of the node the example ends at: unique within one export. */
  id: string;
  trajectoryId: string;
  title: string;
  domain: Domain;
  kind: 'step' | 'path';
  builder: 'world-model' | 'agent' | 'preference';
  /** The whole conversation; for a preference example, the prompt and the chosen answer. */
  messages: ExampleMessage[];
  /**
   * Where the part the example teaches starts: messages before it are the prompt, the rest the
   * completion. Null for a path example, whose every assistant turn is taught.
   */
  completionFrom: number | null;
  /** Agent examples: the tools the agent may call. */
  tools?: ToolSchema[];
  /** Preference examples: the worse answer to the same prompt, and the node it came from. */
  rejected?: { messages: ExampleMessage[]; id: string };
  /** Origin of the node the example teaches (for a path: its last node). */
  origin: Origin;
  /** That node was starred, rated, tagged or given a note: someone looked at it. Unknown (absent) for examples read back from a file. */
  reviewed?: boolean;
  /** Perturbation kinds applied along the example's steps. */
  perturbations: string[];
  /** Models and seeds that produced the example's simulated steps. */
  models: string[];
  seeds: number[];
  /** Formats the steps were imported from (agentworldbench, asciinema…). */
  sources: string[];
  createdAt: string;
}

/** All of an example's text, in order, for token counting and duplicate detection. */
export function exampleText(messages: readonly ExampleMessage[]): string {
  let text = '';
  for (const m of messages) {
    text += m.content + '\n';
    if (m.reasoning) text += m.reasoning + '\n';
    if (m.toolCalls) for (const call of m.toolCalls) text += call.name + JSON.stringify(call.arguments) + '\n';
  }
  return text;
}
