// Policies that propose an agent's next actions at a node, for policy expansion: an
// OpenAI-compatible chat model (asked once per action, each with its own seed), or a script
// of candidate actions (read as text, never run). Each names itself for provenance.agent.
import { createHash } from 'node:crypto';
import type { PolicySpec } from '../common/contract/agents';
import type { ChatMessage } from '../common/engine';
import { contentAfterReasoning } from '../common/prompt/model-output';
import { promptHash } from '../common/prompt/prompt-hash';
import type { NodeRecord, TrajectoryRecord } from '../common/trajectory/model';
import { UserError } from '../common/user-error';
import { OpenAiCompatibleEngine } from '../engine/openai/openai-engine';
import type { AgentProvenance } from './agent-step';

export interface ProposedActions {
  actions: string[];
  /** Who proposed them, for every node they lead to. */
  agent: AgentProvenance;
  /** New tokens the policy used. */
  tokens: number;
}

export interface Policy {
  /** Up to `k` distinct next actions after `path` (root first); `level` is 1 for the start node's children. */
  propose(trajectory: TrajectoryRecord, path: NodeRecord[], k: number, level: number, signal?: AbortSignal): Promise<ProposedActions>;
  dispose(): Promise<void>;
}

export async function openPolicy(spec: PolicySpec): Promise<Policy> {
  return spec.kind === 'script' ? scriptPolicy(spec.text, spec.name) : chatModelPolicy(spec);
}

/** The candidates a script lists: flat (any level) or per level (a list of lists). */
export interface ScriptCandidates {
  flat: string[] | null;
  levels: string[][] | null;
}

/** Reads a script of candidate actions: JSON (["a", "b"], [["level 1"], ["level 2"]], {"actions": […]}) or one action per line (# comments). */
export function parseActionScript(text: string): ScriptCandidates {
  const trimmed = text.trim();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (err) {
      throw new UserError(`The action script looks like JSON but does not parse (${(err as Error).message}). Fix it, or write one action per line.`, 'invalid');
    }
    const list = Array.isArray(value) ? value : (value as { actions?: unknown }).actions;
    if (!Array.isArray(list) || list.length === 0) throw new UserError('A JSON action script is a non-empty list of actions, a list of lists (one per level), or {"actions": […]}.', 'invalid');
    if (list.every((a) => typeof a === 'string')) return { flat: nonEmpty(list as string[]), levels: null };
    if (list.every((l) => Array.isArray(l) && l.every((a) => typeof a === 'string'))) return { flat: null, levels: (list as string[][]).map(nonEmpty) };
    throw new UserError('Every action in a JSON action script must be a string (or every level a list of strings).', 'invalid');
  }
  const lines = nonEmpty(text.split(/\r?\n/).filter((l) => !l.trimStart().startsWith('#')));
  if (lines.length === 0) throw new UserError('The action script lists no actions: write one action per line.', 'invalid');
  return { flat: lines, levels: null };
}

function nonEmpty(actions: string[]): string[] {
  return actions.map((a) => a.trim()).filter((a) => a !== '');
}

/**
 * At each node the script proposes its first K candidates not yet taken on the path to that
 * node (per-level scripts: the level's first K), so a flat list unrolls into distinct paths.
 */
function scriptPolicy(text: string, name: string): Policy {
  const candidates = parseActionScript(text);
  const agent: AgentProvenance = {
    kind: 'policy',
    name: `script ${name}`,
    promptHash: `sha256:${createHash('sha256').update(text).digest('hex')}`,
    sampling: { order: candidates.levels ? 'first K of each level' : 'first K not yet taken on the path' },
  };
  return {
    propose: async (_trajectory, path, k, level) => {
      if (candidates.levels) return { actions: [...new Set(candidates.levels[level - 1] ?? [])].slice(0, k), agent, tokens: 0 };
      const taken = new Set(path.slice(1).map((n) => n.action));
      return { actions: [...new Set(candidates.flat!.filter((a) => !taken.has(a)))].slice(0, k), agent, tokens: 0 };
    },
    dispose: async () => {},
  };
}

/** The chat a policy model sees: the environment, then what it did and saw so far, the agent's side as assistant. */
export function policyMessages(trajectory: TrajectoryRecord, path: NodeRecord[]): ChatMessage[] {
  const system =
    `You are an agent acting in this environment:\n\n${trajectory.systemPrompt || `a ${trajectory.domain} environment`}\n\n` +
    "Reply with exactly one next action, written the way this environment's actions are written, and nothing else.";
  const messages: ChatMessage[] = [{ role: 'system', content: system }, { role: 'user', content: `Initial state:\n${path[0]?.observation ?? ''}` }];
  for (const node of path.slice(1)) {
    messages.push({ role: 'assistant', content: node.action });
    messages.push({ role: 'user', content: node.observation });
  }
  return messages;
}

async function chatModelPolicy(spec: Extract<PolicySpec, { kind: 'openai' }>): Promise<Policy> {
  const engine = new OpenAiCompatibleEngine({ baseUrl: spec.baseUrl, model: spec.model, apiKey: spec.apiKey ?? process.env.WORLDLOOM_POLICY_API_KEY });
  await engine.load();
  const model = engine.describe().modelId;
  return {
    propose: async (trajectory, path, k, level, signal) => {
      const messages = policyMessages(trajectory, path);
      const hash = await promptHash(messages);
      // One request per action, each with its own seed, so the K proposals are independent samples.
      const seedOf = (i: number) => (spec.seed + level * 1000 + path.length * 16 + i) & 0x7fffffff;
      const results = await engine.generate(
        Array.from({ length: k }, (_, i) => ({ id: String(i), messages, sampling: { temperature: spec.temperature, topK: 0, topP: 1, maxTokens: spec.maxTokens, seed: seedOf(i), stop: [] } })),
        () => {},
        signal,
      );
      const failed = results.find((r) => r.finishReason === 'error');
      if (failed && results.every((r) => r.finishReason === 'error')) throw new UserError(`The policy model ${model} failed: ${failed.error ?? 'unknown error'}`, 'engine-failed');
      const actions = [...new Set(results.filter((r) => r.finishReason !== 'error' && r.finishReason !== 'cancelled').map((r) => contentAfterReasoning(r.text).trim()).filter((a) => a !== ''))];
      return {
        actions,
        agent: { kind: 'policy', name: 'openai-compatible', model, promptHash: hash, sampling: { temperature: spec.temperature, maxTokens: spec.maxTokens, seeds: results.map((_, i) => seedOf(i)), endpoint: spec.baseUrl } },
        tokens: results.reduce((s, r) => s + r.completionTokens, 0),
      };
    },
    dispose: () => engine.dispose(),
  };
}
