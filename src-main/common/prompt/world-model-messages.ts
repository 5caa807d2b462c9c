// Builds the chat a world model reads to predict the next observation (DESIGN.md
// "Prompt contract with the world model"). Pure. The turn layout is the AgentWorldBench
// one, built by the same helpers that import and export that format, so a trajectory
// simulated here and one exported there read identically; turns imported from the
// benchmark are sent exactly as the benchmark wrote them.
import type { ChatMessage } from '../engine';
import type { Domain, WorldSpec } from '../trajectory/model';
import { GUI_DOMAINS, promptForAction, responseForObservation } from '../trajectory/turn-format';
import { PLACEHOLDERS, fillTemplate, hasPlaceholder } from './template';

export interface WorldModelTurn {
  action: string;
  observation: string;
  /** The turn's user message as imported (e.g. an AgentWorldBench prompt): sent as is. */
  rawPrompt?: string | null;
  /** The turn's assistant message as imported: sent as is. */
  rawResponse?: string | null;
}

export interface WorldModelPromptInput {
  /**
   * The trajectory's system prompt as stored: either plain text (e.g. imported) or a
   * domain template still holding its placeholders. World spec, initial state and the
   * control instruction are filled in here, at simulation time, never stored in it.
   */
  systemPrompt: string;
  /** Earlier turns, oldest first (the root's initial state is not a turn). */
  history: readonly WorldModelTurn[];
  /** The action whose observation the model is asked to predict. */
  action: string;
  /** The user message for `action` as imported, sent as is (resampling an imported step). */
  actionPrompt?: string | null;
  worldSpec?: WorldSpec | string | null;
  /** The root node's observation: what the environment looked like before the first action. */
  initialState?: string | null;
  /** A perturbation's instruction for this prediction (e.g. "the command fails: disk full"). */
  controlInstruction?: string | null;
  /** GUI domains (Android, Web, OS) write the screen each action is taken on into its turn. */
  domain?: Domain;
  /** A GUI trajectory's task, written on its first turn. */
  taskInstruction?: string | null;
}

// Used only when the system prompt has no placeholder of its own for the value.
const APPENDED_HEADINGS = {
  [PLACEHOLDERS.worldSpec]: '## World specification\n\nThe simulated world must agree with these facts:',
  [PLACEHOLDERS.initialState]: '## Initial state\n\nBefore the first action the environment looked like this:',
  [PLACEHOLDERS.perturbation]: '## Control instruction\n\nShape the next observation according to this instruction:',
} as const;

export function buildWorldModelMessages(input: WorldModelPromptInput): ChatMessage[] {
  const gui = input.domain !== undefined && GUI_DOMAINS.includes(input.domain);
  const messages: ChatMessage[] = [{ role: 'system', content: worldModelSystemPrompt({ ...input, initialState: gui ? null : input.initialState }) }];
  // In GUI domains each turn shows the screen it acts on: the initial state, then each observation.
  const stateBefore = (turn: number) => (turn === 0 ? (input.initialState ?? '') : input.history[turn - 1]!.observation);
  const userTurn = (turn: number, action: string) =>
    promptForAction(turn + 1, action, gui ? { taskInstruction: turn === 0 ? input.taskInstruction : null, currentState: stateBefore(turn) } : undefined);
  input.history.forEach((turn, i) => {
    messages.push({ role: 'user', content: turn.rawPrompt ?? userTurn(i, turn.action) });
    messages.push({ role: 'assistant', content: turn.rawResponse ?? responseForObservation(turn.observation) });
  });
  messages.push({ role: 'user', content: input.actionPrompt ?? userTurn(input.history.length, input.action) });
  return messages;
}

/** The system message alone: the template filled, or plain text with sections appended. */
export function worldModelSystemPrompt(
  input: Pick<WorldModelPromptInput, 'systemPrompt' | 'worldSpec' | 'initialState' | 'controlInstruction'>,
): string {
  // Order matters for prefix reuse: what changes least comes first, the per-prediction
  // control instruction last.
  const values: [string, string][] = [
    [PLACEHOLDERS.worldSpec, worldSpecText(input.worldSpec)],
    [PLACEHOLDERS.initialState, (input.initialState ?? '').trim()],
    [PLACEHOLDERS.perturbation, (input.controlInstruction ?? '').trim()],
  ];
  const isTemplate = values.some(([name]) => hasPlaceholder(input.systemPrompt, name));
  let text = fillTemplate(input.systemPrompt, Object.fromEntries(values));
  // A template's trailing blank lines are left over from dropped sections; imported text is sent as is.
  if (isTemplate) text = text.replace(/\s+$/, '');
  for (const [name, value] of values) {
    if (value === '' || hasPlaceholder(input.systemPrompt, name)) continue;
    const heading = APPENDED_HEADINGS[name as keyof typeof APPENDED_HEADINGS];
    text = `${text.replace(/\s+$/, '')}\n\n${heading}\n\n${value}`;
  }
  return text;
}

/** A world specification as prose followed by its facts, one "- subject: value" line each. */
export function worldSpecText(spec: WorldSpec | string | null | undefined): string {
  if (spec == null) return '';
  if (typeof spec === 'string') return spec.trim();
  const facts = spec.facts
    .filter((f) => f.subject.trim() !== '' || f.value.trim() !== '')
    .map((f) => `- ${f.subject.trim()}: ${f.value.trim()}`);
  return [spec.text.trim(), facts.join('\n')].filter((part) => part !== '').join('\n\n');
}
