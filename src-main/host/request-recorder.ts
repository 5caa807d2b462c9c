// Records what clients of the OpenAI-compatible API asked (`serve --openai --record-to W`):
// each conversation is a trajectory keyed by its system prompt and first user message, its
// earlier turns are the path (shared with every request that sent the same history, as the
// public evaluation script does turn after turn), and each answer is a node under that path
// (origin `agent`, provenance.agent kind `openai-client`), so requests land as paths.
import { createHash } from 'node:crypto';
import { promptHash } from '../common/prompt/prompt-hash';
import { parseModelOutput } from '../common/prompt/model-output';
import { chainBundle } from '../common/trajectory/build';
import { newId } from '../common/trajectory/ids';
import { DOMAINS, type Domain, type NodeRecord } from '../common/trajectory/model';
import { actionFromPrompt, observationFromResponse } from '../common/trajectory/turn-format';
import type { WorkspaceStore } from '../store/workspace-store';
import type { CompletedChat } from './openai-api';

const FORMAT = 'openai-api';

/** The domain a system prompt describes, by the words it uses; terminal when it names none. */
export function domainOfSystemPrompt(text: string): Domain {
  const t = text.toLowerCase();
  const said = (words: string[]) => words.some((w) => t.includes(w));
  if (said(['mcp', 'tools/call', 'json-rpc'])) return 'mcp';
  if (said(['android', 'view hierarchy'])) return 'android';
  if (said(['accessibility tree', 'web page', 'browser'])) return 'web';
  if (said(['desktop', 'operating system'])) return 'os';
  if (said(['search engine', 'search results'])) return 'search';
  if (said(['repository', 'swe-', 'pull request'])) return 'swe';
  const named = DOMAINS.find((d) => t.includes(d));
  return named ?? 'terminal';
}

export class RequestRecorder {
  private readonly trajectories = new Map<string, string>();

  constructor(
    private readonly store: WorkspaceStore,
    private readonly announce: (nodes: NodeRecord[], newTrajectoryIds: string[]) => void = () => {},
  ) {}

  async record(chat: CompletedChat): Promise<NodeRecord[]> {
    const system = chat.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
    const turns = chat.messages.filter((m) => m.role !== 'system');
    const last = turns[turns.length - 1];
    // Only a chat that ends with the client's turn asks the model to answer an action.
    if (!last || last.role !== 'user') return [];
    const history: { user: string; assistant: string }[] = [];
    for (let i = 0; i + 1 < turns.length - 1; i += 2) {
      if (turns[i]!.role !== 'user' || turns[i + 1]!.role !== 'assistant') return [];
      history.push({ user: turns[i]!.content, assistant: turns[i + 1]!.content });
    }
    const first = history[0]?.user ?? last.content;
    const hash = await promptHash(chat.messages);
    const agent = { kind: 'openai-client' as const, ...(chat.userAgent ? { name: chat.userAgent.slice(0, 200) } : {}), ...(chat.request.model ? { model: chat.request.model } : {}) };
    const added: NodeRecord[] = [];
    const created: string[] = [];
    this.store.transaction(() => {
      let parent = this.root(system, first, created);
      for (const turn of history) {
        const action = actionFromPrompt(turn.user);
        const observation = observationFromResponse(turn.assistant);
        const existingSibling = this.store.childrenOf(parent.id).find((n) => n.action === action && n.observation === observation);
        parent =
          existingSibling ??
          this.store.addNode({
            parentId: parent.id,
            action,
            observation,
            origin: 'imported',
            provenance: { source: { format: FORMAT, rawAction: turn.user, rawObservation: turn.assistant } },
          });
        if (!existingSibling) added.push(parent);
      }
      for (const result of chat.results) {
        if (result.finishReason === 'error' || result.finishReason === 'cancelled') continue;
        const { observation, reasoning } = parseModelOutput(result.text);
        added.push(
          this.store.addNode({
            parentId: parent.id,
            action: actionFromPrompt(last.content),
            observation,
            reasoning,
            origin: 'agent',
            provenance: {
              engine: chat.engine,
              modelId: chat.modelId,
              sampling: chat.sampling,
              promptHash: hash,
              tokens: { prompt: result.promptTokens, completion: result.completionTokens },
              finishReason: result.finishReason,
              rawOutput: result.text,
              agent,
              source: { format: FORMAT, rawAction: last.content },
            },
          }),
        );
      }
    });
    this.announce(added, created);
    return added;
  }

  /** The trajectory of a conversation (made on its first request) and its root. */
  private root(system: string, firstUser: string, created: string[]): NodeRecord {
    const key = `${FORMAT}:${createHash('sha256').update(JSON.stringify([system, firstUser])).digest('hex')}`;
    let id = this.trajectories.get(key) ?? this.store.listTrajectories().find((t) => t.sourceKey === key)?.id;
    if (!id) {
      const title = actionFromPrompt(firstUser).split('\n')[0]!.slice(0, 80) || 'API conversation';
      const bundle = chainBundle({ title: `API: ${title}`, domain: domainOfSystemPrompt(system), systemPrompt: system, sourceKey: key, rootProvenance: { source: { format: FORMAT } }, steps: [] }, newId, new Date().toISOString());
      this.store.insertBundle(bundle);
      id = bundle.trajectory.id;
      created.push(id);
    }
    this.trajectories.set(key, id);
    return this.store.getNodes(id).find((n) => n.parentId === null)!;
  }
}
