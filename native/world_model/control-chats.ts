// Control pairs in bulk, for the fine-tune that teaches instruction-mode perturbations
// (stage 4 of the gpu recipe). chats.ts gives about one control pair to every second training
// session, which left MCP with ~74 pairs per kind and web with ~33; the eval showed those
// kinds in 3 of 16 and 0 of 10 cases. Here every training session of a domain gets
// `--per-session` pairs, each a different kind at its own seeded step (every kind once
// before any repeats), laid out by chats.ts's controlPair: the app's own instructionFor and
// applyTransform on a prompt built by buildWorldModelMessages, as perturbStep builds it.
//
//   tsx native/world_model/control-chats.ts [--sessions FILE] [--out FILE] [--seed N]
//                                           [--terminal N] [--mcp N] [--web N]   (pairs per training session)
//                                           [--contrast]   (each pair's prompt again without the instruction, answered with the real screen)
//                                           [--kinds ID,ID]   (only these kinds: more pairs of the ones the eval shows least often)
//                                           [--tag NAME]   (a word in each pair's id, so two runs' pairs never share one)
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { instructionFor, planSweep } from '../../src-main/common/perturbations/apply';
import { recordedChain } from '../../src-main/reality/comparison';
import { workspaceRegistry } from '../../src-main/simulation/workspace-perturbations';
import { messagesForStep } from '../../src-main/simulation/simulate-step';
import { WorkspaceStore } from '../../src-main/store/workspace-store';
import { responseForObservation } from '../../src-main/common/trajectory/turn-format';
import { CONTROL_KINDS, controlPair, sessionPrompt, type TrainingChat } from './chats';
import { addRecordedSession } from './eval-workspace';
import { DATA_DIR, PROMPTS_DIR, type RecordedSession, type SessionDomain } from './paths';
import { Rng, subSeed } from './rng';
import { readSessions } from './sessions';

export function controlChats(
  sessions: readonly RecordedSession[],
  seed: number,
  perSession: Record<SessionDomain, number>,
  contrast = false,
  options: { kinds?: readonly string[]; tag?: string } = {},
): TrainingChat[] {
  const chats: TrainingChat[] = [];
  const tag = options.tag ?? '4';
  for (const session of sessions) {
    if (session.split !== 'train' || session.steps.length === 0) continue;
    const rng = new Rng(subSeed(seed, `controls-${session.id}`, 0));
    const kinds = options.kinds ? CONTROL_KINDS[session.domain].filter((k) => options.kinds!.includes(k)) : CONTROL_KINDS[session.domain];
    const count = kinds.length ? perSession[session.domain] : 0;
    // A seeded rotation of the kinds: the first `kinds.length` pairs are all different.
    const offset = rng.int(0, kinds.length - 1);
    for (let k = 0; k < count; k++) {
      const kindId = kinds[(offset + k) % kinds.length]!;
      const index = rng.int(0, session.steps.length - 1);
      const pair = controlPair(session, index, kindId, rng.int(0, 0x7fffffff));
      chats.push({
        id: `${session.id}-control${tag}-${k}`,
        domain: session.domain,
        split: 'train',
        kind: 'control',
        loss: 'last',
        messages: [...pair.messages, { role: 'assistant', content: responseForObservation(pair.target) }],
      });
      // The same prompt without the instruction, answered with the real screen: a model that sees
      // control targets far more often than plain last turns learns to perturb every answer
      // (a stage-4 fine-tune at 2.7 control pairs per web session printed a spinner for every
      // web step); the pair teaches that the instruction, not the position, decides.
      if (contrast) {
        const plain = sessionPrompt(session, index);
        chats.push({
          id: `${session.id}-plain${tag}-${k}`,
          domain: session.domain,
          split: 'train',
          kind: 'contrast',
          loss: 'last',
          messages: [...plain, { role: 'assistant', content: responseForObservation(session.steps[index]!.observation) }],
        });
      }
    }
  }
  return chats;
}

/**
 * Checks that a control pair's prompt is, message for message, what the app sends when a
 * user perturbs that step in instruction mode: the session stored as `worldloom record`
 * stores it, the instruction planned as the perturbation panel plans it (planSweep) and the
 * prompt built by perturbStep's messagesForStep. Returns how many prompts were compared.
 */
export async function checkLayoutAgainstApp(sessions: readonly RecordedSession[], perDomain: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'worldloom-nano-controls-'));
  const store = WorkspaceStore.create(join(dir, 'check.worldloom'));
  let compared = 0;
  try {
    const registry = workspaceRegistry(store);
    for (const domain of ['terminal', 'mcp', 'web'] as const) {
      for (const session of sessions.filter((s) => s.domain === domain && s.steps.length > 0).slice(0, perDomain)) {
        const chain = recordedChain(store.getNodes(addRecordedSession(store, session))).slice(1);
        for (const [index, node] of chain.entries()) {
          for (const kindId of CONTROL_KINDS[domain]) {
            const [record] = planSweep([kindId], 'instruction', index + 1, { registry });
            const instruction = instructionFor(record!, { domain, action: node.action }, registry);
            const app = await messagesForStep(store, { builtinDir: PROMPTS_DIR }, node.parentId!, node.action, instruction);
            const ours = controlPair(session, index, kindId, index + 1).messages;
            if (JSON.stringify(app) !== JSON.stringify(ours)) {
              throw new Error(`The control pair for ${kindId} at step ${index + 1} of ${session.id} is not laid out as the app lays out that perturbation; fix chats.ts's controlPair before training on it.`);
            }
            compared++;
          }
        }
      }
    }
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return compared;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sessions: { type: 'string', default: join(DATA_DIR, 'sessions.jsonl') },
      out: { type: 'string', default: join(DATA_DIR, 'control-chats.jsonl') },
      seed: { type: 'string', default: '1237' },
      terminal: { type: 'string', default: '1' },
      mcp: { type: 'string', default: '5' },
      web: { type: 'string', default: '5' },
      contrast: { type: 'boolean', default: false },
      kinds: { type: 'string' },
      tag: { type: 'string', default: '4' },
    },
  });
  const perSession = { terminal: Number(values.terminal), mcp: Number(values.mcp), web: Number(values.web) };
  for (const [domain, n] of Object.entries(perSession)) {
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${domain} must be a whole number of control pairs per session (0 or more).`);
  }
  const kinds = values.kinds?.split(',').map((k) => k.trim()).filter(Boolean);
  const known = Object.values(CONTROL_KINDS).flat();
  for (const kind of kinds ?? []) {
    if (!known.includes(kind)) throw new Error(`--kinds: ${kind} is not a control kind; the kinds are ${known.join(', ')}.`);
  }
  if (!/^[a-z0-9]+$/.test(values.tag!)) throw new Error(`--tag is a short word of letters and digits, got ${values.tag}.`);
  const sessions = readSessions(values.sessions!);
  const compared = await checkLayoutAgainstApp(sessions.filter((s) => s.split === 'test'), 3);
  console.log(`control prompts identical to the app's instruction-mode prompts: ${compared} of ${compared} compared`);
  const chats = controlChats(sessions, Number(values.seed), perSession, values.contrast, { kinds, tag: values.tag });
  writeFileSync(values.out!, chats.map((c) => JSON.stringify(c)).join('\n') + '\n');
  const byDomain = (['terminal', 'mcp', 'web'] as const).map((d) => `${d} ${chats.filter((c) => c.domain === d).length}`);
  console.log(`control pairs: ${chats.length} (${byDomain.join(', ')})`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
