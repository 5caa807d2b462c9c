// A training sample as Worldloom exports it: chat messages plus where they came from.
// Pure. Every format writes these and every reader gives them back.
import type { Domain, Origin } from '../common/trajectory/model';

/** A call of one of the sample's tools, as the agent made it. */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** A tool the agent may call: OpenAI-style function schema, as chat templates take it. */
export interface ToolSchema {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface SampleMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  /** For an assistant turn with tool calls: the action as plain text, for formats that have no tool calls. */
  content: string;
  /** The reasoning before an assistant turn (the world model's, or in agent samples the agent's own). */
  reasoning?: string;
  /** Agent samples: the action as a tool call. */
  toolCalls?: ToolCall[];
  /** A tool result: the tool that answered. */
  name?: string;
}

export type Split = 'train' | 'validation';
export const SPLITS: readonly Split[] = ['train', 'validation'];

export interface DatasetSample {
  /** The id of the node the sample ends at: unique within one export. */
  id: string;
  trajectoryId: string;
  title: string;
  domain: Domain;
  kind: 'step' | 'path';
  builder: 'world-model' | 'agent' | 'preference';
  /** The whole conversation; for a preference sample, the prompt and the chosen answer. */
  messages: SampleMessage[];
  /**
   * Where the part the sample teaches starts: messages before it are the prompt, the rest the
   * completion. Null for a path sample, whose every assistant turn is taught.
   */
  completionFrom: number | null;
  /** Agent samples: the tools the agent may call. */
  tools?: ToolSchema[];
  /** Preference samples: the worse answer to the same prompt, and the node it came from. */
  rejected?: { messages: SampleMessage[]; id: string };
  /** Origin of the node the sample teaches (for a path: its last node). */
  origin: Origin;
  /** That node was starred, rated, tagged or given a note: someone looked at it. Unknown (absent) for samples read back from a file. */
  reviewed?: boolean;
  /** Perturbation kinds applied along the sample's steps. */
  perturbations: string[];
  /** Models and seeds that produced the sample's simulated steps. */
  models: string[];
  seeds: number[];
  /** Formats the steps were imported from (agentworldbench, asciinema…). */
  sources: string[];
  createdAt: string;
}

/** All of a sample's text, in order, for token counting and duplicate detection. */
export function sampleText(messages: readonly SampleMessage[]): string {
  let text = '';
  for (const m of messages) {
    text += m.content + '\n';
    if (m.reasoning) text += m.reasoning + '\n';
    if (m.toolCalls) for (const call of m.toolCalls) text += call.name + JSON.stringify(call.arguments) + '\n';
  }
  return text;
}
