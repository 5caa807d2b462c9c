// Preference data read back as trajectories: each pair is the prompt's history, then one action
// with two sibling observations, the chosen one tagged `preferred` and the rejected one
// `rejected` (the marks the samples view and the preference builder use). Reads TRL's
// conversational and standard rows ({prompt, chosen, rejected}) and LLaMA-Factory's ranking
// data (`"ranking": true`): ShareGPT rows ({conversations, chosen, rejected}) and Alpaca rows
// ({instruction, input, chosen, rejected}), one JSON object a line or one JSON array.
import { observationFromResponse } from '../../common/trajectory/turn-format';
import type { NodeRecord } from '../../common/trajectory/model';
import { chatRowItems } from '../../parsing/chat-dataset';
import { messagesRowTurns, shareGptRowTurns, type ChatRow, type ChatTurn } from '../../parsing/chat-rows';
import type { ImportItem } from '../../parsing/import-item';
import { jsonLines } from '../../parsing/json-lines';
import { parseBoundedJson } from '../../parsing/json-limits';
import type { TrajectoryImporter } from '../format';

const FORMAT = 'preference';
type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The last assistant turn of a list of messages (TRL) or one ShareGPT turn (LLaMA-Factory). */
function answerOf(value: unknown): ChatTurn | string {
  const row = Array.isArray(value) ? messagesRowTurns({ messages: value }) : isRec(value) ? shareGptRowTurns({ conversations: [value] }) : typeof value === 'string' ? { turns: [{ role: 'assistant', content: value } as ChatTurn] } : 'an answer is a list of messages, a {from, value} turn or a text';
  if (typeof row === 'string') return row;
  return row.turns.findLast((t) => t.role === 'assistant') ?? 'the answer holds no assistant turn';
}

/** One pair: the history with the chosen answer last, and the rejected answer. */
export function preferencePair(value: unknown): { row: ChatRow; rejected: ChatTurn } | string {
  if (!isRec(value) || !('chosen' in value) || !('rejected' in value)) return 'a preference row has "chosen" and "rejected"';
  const chosen = answerOf(value.chosen);
  const rejected = answerOf(value.rejected);
  if (typeof chosen === 'string') return `chosen: ${chosen}`;
  if (typeof rejected === 'string') return `rejected: ${rejected}`;
  let history: ChatRow | string;
  if (Array.isArray(value.conversations)) history = shareGptRowTurns({ conversations: value.conversations, system: value.system, tools: value.tools });
  else if (Array.isArray(value.prompt)) history = messagesRowTurns({ messages: value.prompt });
  else if (typeof value.prompt === 'string') history = { turns: [{ role: 'user', content: value.prompt }] };
  else if (typeof value.instruction === 'string') {
    const input = typeof value.input === 'string' && value.input !== '' ? `\n\n${value.input}` : '';
    history = { turns: [...(typeof value.system === 'string' ? [{ role: 'system', content: value.system } as ChatTurn] : []), { role: 'user', content: `${value.instruction}${input}` }] };
  } else return 'a preference row has its history in "prompt" (TRL), "conversations" (LLaMA-Factory ShareGPT) or "instruction" (LLaMA-Factory Alpaca)';
  if (typeof history === 'string') return history;
  if (history.turns.at(-1)?.role !== 'user') return 'the history ends with the user turn both answers reply to; it does not';
  return { row: { ...history, turns: [...history.turns, chosen] }, rejected };
}

function* rows(source: Parameters<TrajectoryImporter['parse']>[0]): Iterable<{ line: number | null; n: number; value: unknown; text: string } | Extract<ImportItem, { kind: 'problem' }>> {
  const head = source.text().slice(0, 1024).trimStart();
  if (head.startsWith('[')) {
    let list: unknown;
    try {
      list = parseBoundedJson(source.text());
    } catch (err) {
      yield { kind: 'problem', line: null, reason: `not valid JSON (${(err as Error).message})` };
      return;
    }
    for (const [i, value] of (Array.isArray(list) ? list : []).entries()) yield { line: null, n: i + 1, value, text: JSON.stringify(value) };
    return;
  }
  for (const rec of jsonLines(source)) yield rec.kind === 'problem' ? rec : { line: rec.lineNo, n: rec.lineNo, value: rec.value, text: rec.text };
}

export const preferenceImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'Preference JSONL (TRL DPO: prompt, chosen, rejected)',
  detect(_name, head) {
    const start = head.trimStart();
    const first = start.startsWith('[') ? start.slice(1, 8192) : (start.split('\n', 1)[0] ?? '');
    if (!/^\s*\{/.test(first) || !/"chosen"\s*:/.test(first) || !/"rejected"\s*:/.test(first)) return 0;
    return /"(prompt|conversations|instruction)"\s*:/.test(first) ? 0.9 : 0;
  },
  *parse(source, newId, now, options) {
    if (options?.chatAs === 'agent') {
      yield { kind: 'problem', line: null, reason: 'preference pairs are read as world-model data (the last user turn is the action, chosen and rejected its two observations); import without --chat-as agent' };
      return;
    }
    for (const r of rows(source)) {
      if ('kind' in r) {
        yield r;
        continue;
      }
      const where = r.line === null ? `row ${r.n}` : `line ${r.n}`;
      const pair = preferencePair(r.value);
      if (typeof pair === 'string') {
        yield { kind: 'problem', line: r.line, reason: r.line === null ? `${where}: ${pair}` : pair };
        continue;
      }
      for (const item of chatRowItems(pair.row, 'world-model', { format: FORMAT, file: source.name, line: r.line, where, text: r.text }, newId, now)) {
        if (item.kind !== 'trajectory') {
          yield item;
          continue;
        }
        const nodes = item.bundle.nodes;
        const chosen = nodes.at(-1)!;
        if (nodes.length < 2) {
          yield item;
          continue;
        }
        const { rawObservation: _raw, ...source_ } = (chosen.provenance.source ?? { format: FORMAT }) as NonNullable<NodeRecord['provenance']['source']>;
        const rejected: NodeRecord = {
          ...chosen,
          id: newId(),
          observation: observationFromResponse(pair.rejected.content),
          reasoning: pair.rejected.reasoning ?? null,
          provenance: { ...chosen.provenance, source: source_ },
          curation: { ...chosen.curation, tags: ['rejected'] },
        };
        yield { kind: 'trajectory', bundle: { trajectory: item.bundle.trajectory, nodes: [...nodes.slice(0, -1), { ...chosen, curation: { ...chosen.curation, tags: ['preferred'] } }, rejected] } };
      }
    }
  },
};
