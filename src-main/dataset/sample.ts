// A training sample as Worldloom exports it: chat messages plus where they came from.
// Pure. Every format writes these and every reader gives them back.
import type { Domain, Origin } from '../common/trajectory/model';

export interface SampleMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
  /** The world model's reasoning for an assistant turn, written per the format's convention. */
  reasoning?: string;
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
  builder: 'world-model' | 'agent';
  messages: SampleMessage[];
  /** Origin of the node the sample teaches (for a path: its last node). */
  origin: Origin;
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
  }
  return text;
}
