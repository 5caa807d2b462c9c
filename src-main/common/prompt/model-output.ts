// Splits what a world model wrote into its reasoning and its predicted observation
// (DESIGN.md "Prompt contract with the world model"). Pure: runs in the renderer too,
// on the text streamed so far, so the UI can show both while tokens arrive.
import { OBSERVATION_HEADING } from '../trajectory/turn-format';

export interface ModelOutput {
  /** The predicted observation, without reasoning, tags or the observation heading. */
  observation: string;
  /** Every <think> block, in order, joined by a blank line; null when the model did not reason. */
  reasoning: string | null;
}

export interface PartialModelOutput extends ModelOutput {
  /** True while the stream is inside reasoning, so the UI can say "thinking…". */
  reasoningOpen: boolean;
  /** True while a <predicted_observation> block is open (its closing tag not written yet). */
  observationOpen: boolean;
}

/**
 * Why a completion that ran out of tokens is not a finished observation: still reasoning,
 * reasoning ended but nothing after it, or a <predicted_observation> block left open.
 */
export type Incompleteness = 'reasoning' | 'no-observation' | 'observation';

/**
 * Whether a completion that ended with `finishReason` is unfinished, and how. Only a length
 * cut counts: a model that stopped on its own with an empty answer predicted an empty
 * observation (a silent command). A length cut in untagged text cannot be told from a
 * finished answer and is left to the finish reason recorded with it.
 */
export function incompleteness(text: string, finishReason: string): Incompleteness | null {
  if (finishReason !== 'length') return null;
  const parsed = split(text);
  if (parsed.reasoningOpen) return 'reasoning';
  if (parsed.observation.trim() === '') return 'no-observation';
  return parsed.observationOpen ? 'observation' : null;
}

const TAGS = ['<think>', '</think>', '<predicted_observation>', '</predicted_observation>'] as const;
type Tag = (typeof TAGS)[number];
const TAG_PATTERN = /<\/?(?:think|predicted_observation)>/gi;

/** Parses a finished completion. Nothing the model wrote is dropped except tags and the heading. */
export function parseModelOutput(text: string): ModelOutput {
  const { observation, reasoning } = split(text);
  return { observation, reasoning };
}

/**
 * What a server with a reasoning parser returns as the message `content` for this text: what
 * follows the reasoning, and "" while the reasoning is still open (a generation cut inside it).
 */
export function contentAfterReasoning(text: string): string {
  if (split(text).reasoningOpen) return '';
  const close = text.toLowerCase().lastIndexOf('</think>');
  return close < 0 ? text : text.slice(close + '</think>'.length);
}

/**
 * Parses text that is still streaming. A tag (or the observation heading) cut in half at
 * the end is held back, so the UI never flashes "<predicted_obs" and then erases it.
 */
export function parsePartialOutput(text: string): PartialModelOutput {
  const parsed = split(withoutTrailingTagPrefix(text));
  const heading = OBSERVATION_HEADING.toLowerCase();
  const head = parsed.observation.toLowerCase();
  // The observation may begin with the heading, which is still arriving.
  if (head.length > 0 && head.length < heading.length && heading.startsWith(head)) parsed.observation = '';
  return parsed;
}

type Segment = { kind: 'reasoning' | 'observation' | 'loose'; text: string };

function split(text: string): PartialModelOutput {
  const segments: Segment[] = [];
  let state: 'outside' | 'think' | 'observation' = 'outside';
  let from = 0;
  // A <predicted_observation> inside reasoning that is closed later is a draft, not the answer.
  const lastThinkClose = text.toLowerCase().lastIndexOf('</think>');

  const push = (kind: Segment['kind'], end: number) => segments.push({ kind, text: text.slice(from, end) });

  for (const match of text.matchAll(TAG_PATTERN)) {
    const at = match.index;
    const tag = match[0].toLowerCase() as Tag;
    const after = at + match[0].length;
    if (state === 'outside') {
      if (tag === '<think>') {
        push('loose', at);
        state = 'think';
      } else if (tag === '<predicted_observation>') {
        push('loose', at);
        state = 'observation';
      } else if (tag === '</think>') {
        // Chat templates that pre-fill "<think>" in the prompt leave only the closing tag.
        push('reasoning', at);
      } else if (text.slice(from, at).trim() !== '') {
        // A closing tag whose opening the model forgot: what came before it is the answer.
        push('observation', at);
      } else {
        // A stray repeated closing tag: nothing to keep.
        push('loose', at);
      }
    } else if (state === 'think') {
      if (tag === '</think>') {
        push('reasoning', at);
        state = 'outside';
      } else if (tag === '<think>') {
        // A repeated opening inside reasoning: drop the tag, the reasoning goes on.
        push('reasoning', at);
      } else if (tag === '<predicted_observation>' && at > lastThinkClose) {
        // Reasoning never closed but the answer began: the reasoning ends here.
        push('reasoning', at);
        state = 'observation';
      } else {
        continue;
      }
    } else {
      // Inside an observation only its own tags count: the environment may well print "<think>".
      if (tag === '</predicted_observation>') {
        push('observation', at);
        state = 'outside';
      } else if (tag === '<predicted_observation>') {
        // A repeated opening starts over: the later attempt is the answer.
        push('observation', at);
      } else {
        continue;
      }
    }
    from = after;
  }
  const tailKind = state === 'think' ? 'reasoning' : state === 'observation' ? 'observation' : 'loose';
  push(tailKind, text.length);

  const reasoningParts = segments
    .filter((s) => s.kind === 'reasoning')
    .map((s) => s.text.trim())
    .filter((s) => s !== '');
  const answers = segments.filter((s) => s.kind === 'observation');
  const raw =
    answers.length > 0
      ? answers[answers.length - 1]!.text
      : segments
          .filter((s) => s.kind === 'loose')
          .map((s) => s.text)
          .join('');
  return {
    observation: tidyObservation(raw),
    reasoning: reasoningParts.length > 0 ? reasoningParts.join('\n\n') : null,
    reasoningOpen: state === 'think',
    observationOpen: state === 'observation',
  };
}

/** Drops the heading the model may repeat from its training layout, and surrounding blank lines. */
function tidyObservation(raw: string): string {
  let text = raw.replace(/^(?:[ \t]*\r?\n)+/, '');
  const trimmedStart = text.trimStart();
  if (trimmedStart.toLowerCase().startsWith(OBSERVATION_HEADING.toLowerCase())) {
    const rest = trimmedStart.slice(OBSERVATION_HEADING.length);
    // The heading usually stands on its own line; when text follows on the same line, keep the text.
    text = /^[ \t]*\r?\n/.test(rest) ? rest.replace(/^(?:[ \t]*\r?\n)+/, '') : rest.replace(/^[ \t]+/, '');
  }
  // Leading spaces of the first line can matter (indented output); trailing whitespace cannot.
  return text.replace(/\s+$/, '');
}

function withoutTrailingTagPrefix(text: string): string {
  const lt = text.lastIndexOf('<');
  if (lt < 0) return text;
  const tail = text.slice(lt).toLowerCase();
  const cutTag = TAGS.some((tag) => tag.length > tail.length && tag.startsWith(tail));
  return cutTag ? text.slice(0, lt) : text;
}
