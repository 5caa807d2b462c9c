// The exact chat a world model is asked to continue when it simulates an action at a node:
// the trajectory's system prompt (its own, else the domain template), the path's turns, the
// new action. Turns imported from a benchmark are sent as the benchmark wrote them, and
// resampling an imported step sends its imported prompt, so a model sees what it was
// trained and evaluated on.
import type { ChatMessage } from '../common/engine';
import { loadDomainTemplate, type TemplateFolders } from '../prompt/template-files';
import { stripLeadingComment } from '../common/prompt/template';
import { buildWorldModelMessages } from '../common/prompt/world-model-messages';
import { UserError } from '../common/user-error';
import type { WorkspaceStore } from '../store/workspace-store';
import type { NodeRecord } from '../common/trajectory/model';
import { GUI_DOMAINS, guiBlocksFromPrompt, promptForAction, type GuiBlocks } from '../common/trajectory/turn-format';

export interface StepPrompt {
  messages: ChatMessage[];
  /** `imported` when any turn (or the action itself) is sent as imported text. */
  source: 'tree' | 'imported';
}


/** The GUI blocks (task, screen) an imported turn was written with, kept by the importer. */
function importedGui(n: NodeRecord): GuiBlocks | null {
  const gui = (n.provenance as { gui?: unknown }).gui;
  return gui && typeof gui === 'object' ? (gui as GuiBlocks) : null;
}

/** The prompt an imported turn was written with: its raw text, else rebuilt from its GUI blocks. */
function rawPrompt(n: NodeRecord): string | null {
  const raw = n.provenance.source?.rawAction;
  if (raw) return raw;
  const gui = importedGui(n);
  return gui ? promptForAction(n.depth, n.action, gui) : null;
}
const rawResponse = (n: NodeRecord) => n.provenance.source?.rawObservation ?? null;

/** The chat messages the world model sees for `action` after `nodeId`. */
export async function promptForStep(
  store: WorkspaceStore,
  templates: TemplateFolders,
  nodeId: string,
  action: string,
  controlInstruction?: string | null,
): Promise<StepPrompt> {
  // Only the path to the node is read, so a prompt costs the same in a small tree and a huge one.
  const path = store.paths.pathTo(nodeId);
  const node = path[path.length - 1];
  if (!node || node.id !== nodeId) throw new UserError(`Node ${nodeId} is not in this workspace.`, 'not-found');
  const trajectory = store.getTrajectory(node.trajectoryId)!;
  const root = path[0]!;
  // A trajectory without its own environment description uses the domain's template,
  // whose placeholders buildWorldModelMessages fills.
  const systemPrompt = trajectory.systemPrompt.trim()
    ? trajectory.systemPrompt
    : stripLeadingComment((await loadDomainTemplate(trajectory.domain, templates)).text);
  const steps = path.slice(1);
  // Resampling an imported step: its own prompt holds what the benchmark showed (GUI state included).
  const importedTwin = store.childrenOf(nodeId).find((n) => n.action === action && rawPrompt(n) !== null);
  const actionPrompt = importedTwin ? rawPrompt(importedTwin) : null;
  const imported = actionPrompt !== null || steps.some((n) => rawPrompt(n) !== null || rawResponse(n) !== null);
  const gui = GUI_DOMAINS.includes(trajectory.domain);
  const firstTurn = gui ? importedFirstTurn(store, root.id) : {};
  return {
    messages: buildWorldModelMessages({
      systemPrompt,
      history: steps.map((n) => ({ action: n.action, observation: n.observation, rawPrompt: rawPrompt(n), rawResponse: rawResponse(n) })),
      action,
      actionPrompt,
      worldSpec: trajectory.worldSpec,
      // An imported GUI trajectory keeps its first screen in its first prompt, not in the root.
      initialState: root.observation.trim() === '' && firstTurn.currentState ? firstTurn.currentState : root.observation,
      controlInstruction,
      domain: trajectory.domain,
      taskInstruction: firstTurn.taskInstruction ?? null,
    }),
    source: imported ? 'imported' : 'tree',
  };
}

/** A GUI trajectory's task and first screen, as its imported first turn states them. */
function importedFirstTurn(store: WorkspaceStore, rootId: string): GuiBlocks {
  const first = store.paths.firstImportedChild(rootId);
  if (!first) return {};
  return importedGui(first) ?? guiBlocksFromPrompt(rawPrompt(first)!);
}
