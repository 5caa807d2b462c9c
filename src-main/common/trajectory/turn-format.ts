// How one turn is written in the world model's chat layout (DESIGN.md "Prompt contract with
// the world model"): the user turn holds `### Turn N` and an **Action:** block
// (GUI domains put **Task Instruction:** on the first turn and **Current State:** on every
// turn before it), the assistant turn starts with **Environment Observation:**. This is the
// layout of AgentWorldBench and of Qwen-AgentWorld's training data. Pure; shared by
// formats, prompt building and dataset export.
import type { Domain } from './model';

export const OBSERVATION_HEADING = '**Environment Observation:**';
const ACTION_MARKER = '**Action:**';
const TASK_MARKER = '**Task Instruction:**';
const STATE_MARKER = '**Current State:**';

/** Domains whose prompts carry the task and the screen the action is taken on. */
export const GUI_DOMAINS: readonly Domain[] = ['android', 'web', 'os'];

export interface GuiBlocks {
  /** The agent's task; the benchmark writes it on the first turn only. */
  taskInstruction?: string | null;
  /** The screen (view hierarchy, accessibility tree, desktop state) the action is taken on. */
  currentState?: string | null;
}

/** The turn's action from its prompt: the text after the `**Action:**` marker, else the whole prompt. */
export function actionFromPrompt(prompt: string): string {
  const at = prompt.indexOf(ACTION_MARKER);
  if (at < 0) return prompt.trim();
  return prompt.slice(at + ACTION_MARKER.length).replace(/^[ \t]*\n?/, '').replace(/\s+$/, '');
}

/** The **Task Instruction:** and **Current State:** blocks of a GUI prompt, where it has them. */
export function guiBlocksFromPrompt(prompt: string): GuiBlocks {
  const action = prompt.indexOf(ACTION_MARKER);
  const head = action < 0 ? prompt : prompt.slice(0, action);
  const block = (marker: string, until: string[]): string | null => {
    const at = head.indexOf(marker);
    if (at < 0) return null;
    const from = at + marker.length;
    const ends = until.map((m) => head.indexOf(m, from)).filter((i) => i >= 0);
    const end = ends.length > 0 ? Math.min(...ends) : head.length;
    return head.slice(from, end).replace(/^[ \t]*\n?/, '').replace(/\s+$/, '');
  };
  return { taskInstruction: block(TASK_MARKER, [STATE_MARKER]), currentState: block(STATE_MARKER, [TASK_MARKER]) };
}

/** A turn's user message, as the benchmark and the model's training data (worldloom-nano's too) write it. */
export function promptForAction(turn: number, action: string, gui?: GuiBlocks): string {
  const blocks: string[] = [];
  const task = gui?.taskInstruction;
  const state = gui?.currentState;
  if (task != null && task !== '') blocks.push(`${TASK_MARKER}\n${task}`);
  if (state != null) blocks.push(`${STATE_MARKER}\n${state}`);
  blocks.push(`${ACTION_MARKER}\n${action}`);
  return `### Turn ${turn}\n${blocks.join('\n\n')}`;
}

export function observationFromResponse(response: string): string {
  const trimmed = response.replace(/^\s+/, '');
  if (!trimmed.startsWith(OBSERVATION_HEADING)) return response;
  return trimmed.slice(OBSERVATION_HEADING.length).replace(/^[ \t]*\n?/, '');
}

export function responseForObservation(observation: string): string {
  return `${OBSERVATION_HEADING}\n${observation}`;
}
