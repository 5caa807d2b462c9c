// Turns recorded sessions into the chats the model is trained on, laid out by the app's own
// buildWorldModelMessages exactly as a replay or a simulation of a recorded trajectory
// lays them out (src-main/simulation/step-prompt.ts): the trajectory's system prompt (the
// recorder's description), the initial state, the turns in the benchmark layout, and for
// GUI domains the screen each action is taken on. Every assistant turn is a training
// target; the last one is rendered by the chat template the way the model answers at
// inference (after the generation prompt's open think block).
//
// Besides whole sessions:
// - sessions with the domain template as system prompt (trajectories made in the app have
//   no description of their own), so both kinds of prompt are known;
// - control pairs: an instruction-mode perturbation's control instruction in the input and,
//   as the target, the transform mode of the same kind applied to the real observation, so
//   the model learns to play out "disk full" or "rate limited" when told to.
//
//   tsx native/world_model/chats.ts [--sessions FILE] [--out FILE] [--seed N]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { ChatMessage } from '../../src-main/common/engine';
import { applyTransform, instructionFor, planPerturbation } from '../../src-main/common/perturbations/apply';
import { loadDomainTemplate } from '../../src-main/prompt/template-files';
import { stripLeadingComment } from '../../src-main/common/prompt/template';
import { buildWorldModelMessages } from '../../src-main/common/prompt/world-model-messages';
import { responseForObservation } from '../../src-main/common/trajectory/turn-format';
import { DATA_DIR, PROMPTS_DIR, type RecordedSession, type SessionDomain } from './paths';
import { Rng, subSeed } from './rng';
import { readSessions } from './sessions';

/** One training chat: its messages end with the target assistant turn. */
export interface TrainingChat {
  id: string;
  domain: SessionDomain;
  split: 'train' | 'test';
  /** contrast: a control pair's prompt without its instruction, answered with the real screen (control-chats.ts). */
  kind: 'session' | 'template' | 'control' | 'contrast';
  messages: ChatMessage[];
  /** Which assistant turns carry the loss: all of them, or only the last (control pairs). */
  loss: 'all' | 'last';
}

/** Perturbation kinds taught in instruction mode, with default params (what the perturbation panel sends). */
export const CONTROL_KINDS: Record<SessionDomain, string[]> = {
  terminal: ['terminal.command-not-found', 'terminal.permission-denied', 'terminal.disk-full', 'terminal.timeout-partial-output', 'terminal.interactive-prompt'],
  mcp: ['mcp.tool-error', 'mcp.rate-limited', 'mcp.auth-expired', 'mcp.timeout', 'mcp.truncated-result'],
  web: ['web.consent-popup', 'web.modal-dialog', 'web.error-page', 'web.captcha', 'web.endless-spinner'],
};

/** Shares of training sessions that also give a template chat or a control pair. */
const TEMPLATE_SHARE = 0.15;
const CONTROL_SHARE: Record<SessionDomain, number> = { terminal: 0.5, mcp: 0.5, web: 0.6 };

/** The chat that asks for step `index` of a recorded session, as the app builds it. */
export function sessionPrompt(session: RecordedSession, index: number, options: { systemPrompt?: string; controlInstruction?: string | null } = {}): ChatMessage[] {
  return buildWorldModelMessages({
    systemPrompt: options.systemPrompt ?? session.systemPrompt,
    history: session.steps.slice(0, index).map((s) => ({ action: s.action, observation: s.observation })),
    action: session.steps[index]!.action,
    worldSpec: null,
    initialState: session.initialState,
    controlInstruction: options.controlInstruction ?? null,
    domain: session.domain,
    taskInstruction: null,
  });
}

function withAnswer(messages: ChatMessage[], observation: string): ChatMessage[] {
  return [...messages, { role: 'assistant', content: responseForObservation(observation) }];
}

/** The control pair for step `index`: the instruction of `kindId` in, its transform of the real observation out. */
export function controlPair(session: RecordedSession, index: number, kindId: string, seed: number): { messages: ChatMessage[]; target: string } {
  const step = session.steps[index]!;
  const ctx = { domain: session.domain, action: step.action };
  const instruction = instructionFor(planPerturbation({ kindId, mode: 'instruction', seed }), ctx);
  const target = applyTransform(planPerturbation({ kindId, mode: 'transform', seed }), step.observation, ctx);
  return { messages: sessionPrompt(session, index, { controlInstruction: instruction }), target };
}

export async function trainingChats(sessions: readonly RecordedSession[], seed: number): Promise<TrainingChat[]> {
  const templates: Record<SessionDomain, string> = {
    terminal: stripLeadingComment((await loadDomainTemplate('terminal', { builtinDir: PROMPTS_DIR })).text),
    mcp: stripLeadingComment((await loadDomainTemplate('mcp', { builtinDir: PROMPTS_DIR })).text),
    web: stripLeadingComment((await loadDomainTemplate('web', { builtinDir: PROMPTS_DIR })).text),
  };
  const chats: TrainingChat[] = [];
  for (const session of sessions) {
    if (session.steps.length === 0) continue;
    const rng = new Rng(subSeed(seed, `chats-${session.id}`, 0));
    const last = session.steps.length - 1;
    const base = { id: session.id, domain: session.domain, split: session.split };
    chats.push({ ...base, kind: 'session', loss: 'all', messages: withAnswer(sessionPrompt(session, last), session.steps[last]!.observation) });
    if (session.split === 'test') continue;
    if (rng.chance(TEMPLATE_SHARE)) {
      const messages = withAnswer(sessionPrompt(session, last, { systemPrompt: templates[session.domain] }), session.steps[last]!.observation);
      chats.push({ ...base, id: `${session.id}-template`, kind: 'template', loss: 'all', messages });
    }
    if (rng.chance(CONTROL_SHARE[session.domain])) {
      const index = rng.int(0, last);
      const kindId = rng.pick(CONTROL_KINDS[session.domain]);
      const pair = controlPair(session, index, kindId, rng.int(0, 0x7fffffff));
      chats.push({ ...base, id: `${session.id}-control-${index}`, kind: 'control', loss: 'last', messages: withAnswer(pair.messages, pair.target) });
    }
  }
  return chats;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sessions: { type: 'string', default: join(DATA_DIR, 'sessions.jsonl') },
      out: { type: 'string', default: join(DATA_DIR, 'chats.jsonl') },
      seed: { type: 'string', default: '1234' },
    },
  });
  const chats = await trainingChats(readSessions(values.sessions!), Number(values.seed));
  writeFileSync(values.out!, chats.map((c) => JSON.stringify(c)).join('\n') + '\n');
  const count = (kind: TrainingChat['kind']) => chats.filter((c) => c.kind === kind && c.split === 'train').length;
  console.log(`chats: ${chats.length} (train: ${count('session')} sessions, ${count('template')} with the domain template, ${count('control')} control pairs)`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
