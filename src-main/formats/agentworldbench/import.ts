// AgentWorldBench JSONL, read (./export.ts writes it). The benchmark unrolls each trajectory
// into one line per evaluated turn. A line carries either the whole trajectory or only its
// prefix up to the evaluated turn (the public eval reads no further); lines of one
// trajectory (same id and system prompt, lists that agree where they overlap) are one
// trajectory and are imported once. GUI prompts (Android, Web, OS) hold the task and the
// screen before the action: they are kept on the node (provenance.gui) and the first
// screen is the trajectory's initial state.
import { z } from 'zod';
import { chainBundle } from '../../common/trajectory/build';
import { DOMAINS, type Domain, type TrajectoryBundle } from '../../common/trajectory/model';
import { jsonLines } from '../../parsing/json-lines';
import type { ImportItem } from '../../parsing/import-item';
import type { ImportSource } from '../../parsing/sources';
import type { TrajectoryImporter } from '../format';
import { contentKey } from '../../parsing/content-key';
import { actionFromPrompt, guiBlocksFromPrompt, observationFromResponse, promptForAction, responseForObservation, type GuiBlocks } from '../../common/trajectory/turn-format';
import { AwbLine, domainOf } from '../../parsing/agentworldbench-line';
import { plainZodIssue } from '../../parsing/json-document';

function describeZodError(err: z.ZodError): { field: string; reason: string } {
  const issue = err.issues[0]!;
  const field = issue.path.join('.') || '(line)';
  return { field, reason: plainZodIssue(issue, field) };
}

export const agentWorldBenchImporter: TrajectoryImporter = {
  id: 'agentworldbench',
  label: 'AgentWorldBench JSONL',
  detect(name, head) {
    const first = head.split('\n', 1)[0] ?? '';
    if (first.includes('"system_str"') && first.includes('"response"') && first.includes('"prompt"')) return 0.95;
    return /_test\.jsonl$/i.test(name) ? 0.4 : 0;
  },
  *parse(source: ImportSource, newId, now): Iterable<ImportItem> {
    const seen = new SeenTrajectories();
    for (const item of jsonLines(withoutRepeatedLines(source, seen))) {
      if (item.kind === 'problem') {
        yield item;
        continue;
      }
      const raw = item.value;
      // The benchmark repeats each trajectory on every turn's line: a line that repeats the
      // last one read needs no validation (the content was validated and imported already).
      if (seen.repeatsRaw(raw)) continue;
      const parsed = AwbLine.safeParse(raw);
      if (!parsed.success) {
        const { field, reason } = describeZodError(parsed.error);
        yield { kind: 'problem', line: item.lineNo, field, reason };
        continue;
      }
      const rec: AwbLine = parsed.data;
      if (rec.response.length !== rec.prompt.length && rec.response.length !== rec.prompt.length - 1) {
        yield {
          kind: 'problem',
          line: item.lineNo,
          field: 'response',
          reason: `response has ${rec.response.length} turns but prompt has ${rec.prompt.length}: a line holds as many observations as actions, or one fewer when it stops at the turn it evaluates`,
        };
        continue;
      }
      const domain = domainOf(rec.task, source.name);
      if (!domain) {
        yield {
          kind: 'problem',
          line: item.lineNo,
          field: 'task',
          reason: `unknown domain "${rec.task}" (expected one of ${DOMAINS.join(', ')})`,
        };
        continue;
      }
      const whole = rec.response.length === rec.prompt.length && (rec.total_turns === undefined || rec.prompt.length >= rec.total_turns);
      if (!whole) {
        // Only a prefix: the rest of it may come on a later line, so it waits for the end.
        seen.addPrefix(rec, domain, item.lineNo);
        continue;
      }
      if (seen.repeats(rec)) continue;
      const key = contentKey(['awb', rec.system_str, ...rec.prompt, '\u0000', ...rec.response]);
      if (!seen.add(rec, key, item)) continue;
      yield { kind: 'trajectory', bundle: bundleFromLine(rec, domain, key, source.name, item.lineNo, newId, now) };
    }
    for (const { rec, domain, lineNo } of seen.uncoveredPrefixes(source)) {
      const answered = rec.response.length;
      const turns: AwbLine = { ...rec, prompt: rec.prompt.slice(0, answered) };
      if (answered < rec.prompt.length) {
        yield {
          kind: 'skipped',
          line: lineNo,
          what: `turn ${rec.prompt.length} of sample ${String(rec.id)} (an action without its observation)`,
          reason: 'the line stops before the observation of the turn it evaluates, and no line of this trajectory carries it; the turns before it are imported',
        };
      }
      if (answered === 0) continue;
      const key = contentKey(['awb', rec.system_str, ...turns.prompt, '\u0000', ...turns.response]);
      if (!seen.add(turns, key)) continue;
      yield { kind: 'trajectory', bundle: bundleFromLine(turns, domain, key, source.name, lineNo, newId, now) };
    }
  },
};

/** Whether the lists agree wherever both have an entry. */
function agreeOnOverlap(a: readonly string[], b: readonly string[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * What is kept of a whole line once it is imported: a short digest of its system prompt and of
 * each turn, enough to tell whether a prefix line is part of it. Keeping the lines themselves
 * would hold the whole file in memory; digests hold a few dozen bytes per turn.
 */
interface WholeDigest {
  system: string;
  prompt: string[];
  response: string[];
}

/**
 * A turn's digest: its length and two independent 32-bit hashes (FNV-1a and djb2), computed
 * in one pass in JS. A cryptographic hash per turn cost a tenth of the whole import; two
 * texts of the same length that collide in both are not a practical risk for one file.
 */
function digest(text: string): string {
  let fnv = 0x811c9dc5;
  let djb = 5381;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    fnv = Math.imul(fnv ^ c, 0x01000193);
    djb = (Math.imul(djb, 33) + c) | 0;
  }
  return `${text.length.toString(36)}.${(fnv >>> 0).toString(36)}.${(djb >>> 0).toString(36)}`;
}

function digestOf(rec: AwbLine): WholeDigest {
  return { system: digest(rec.system_str), prompt: rec.prompt.map(digest), response: rec.response.map(digest) };
}

/** Whether `whole` is the trajectory `part` is a prefix of. */
function covers(whole: WholeDigest, part: AwbLine): boolean {
  if (whole.system !== digest(part.system_str) || whole.prompt.length < part.prompt.length) return false;
  const partDigest = { prompt: part.prompt.map(digest), response: part.response.map(digest) };
  return agreeOnOverlap(whole.prompt, partDigest.prompt) && agreeOnOverlap(whole.response, partDigest.response);
}

/** Where the lines of one trajectory may differ: what each line says about the turn it evaluates. */
const TRAJECTORY_KEYS = ['id', 'system_str', 'prompt', 'response'] as const;

/** The last whole line's text of each of TRAJECTORY_KEYS, to recognise a line that repeats it without parsing it. */
type LineSpans = Map<string, string>;

/**
 * The trajectories met so far in one file. Hashing every line's whole content would cost
 * more than parsing it, so a line is first compared (string equality, no hashing) with the
 * whole line last seen under the same sample id; only new content is hashed. Of earlier
 * whole lines only their line numbers are kept (memory stays small however large the file);
 * they are read again, once, only when the file also has lines holding only a prefix. Lines
 * holding only a prefix are merged per sample id and system prompt, the longest kept.
 */
class SeenTrajectories {
  private readonly keys = new Set<string>();
  /** Per sample id, its whole lines: a line number until it is needed, then its digest. */
  private readonly wholeById = new Map<string, (number | WholeDigest)[]>();
  /** The last whole line, for the cheap check of a line that repeats it. */
  private last: AwbLine | null = null;
  private lastSpans: LineSpans | null = null;
  private readonly prefixesById = new Map<string, { rec: AwbLine; domain: Domain; lineNo: number }[]>();

  /** `repeats` for a value not yet validated: only the fields compared are looked at. */
  repeatsRaw(raw: unknown): boolean {
    const r = raw as Partial<Record<keyof AwbLine, unknown>> | null;
    if (this.last === null || typeof r !== 'object' || r === null) return false;
    if (typeof r.system_str !== 'string' || !Array.isArray(r.prompt) || !Array.isArray(r.response) || (typeof r.id !== 'string' && typeof r.id !== 'number')) return false;
    return this.repeats(r as AwbLine);
  }

  /**
   * `repeatsRaw` on a line's text, before it is parsed: true when its id, system prompt and
   * lists are written exactly as in the last whole line and the rest of it is valid JSON. The
   * benchmark writes each trajectory once per turn, so most lines are such repeats, and parsing
   * them whole cost most of an import's reading. False (then it is parsed as any line) whenever
   * the text differs, even where the values would not.
   */
  repeatsText(text: string): boolean {
    const spans = this.lastSpans;
    if (spans === null) return false;
    const members = topLevelMembers(text, spans);
    if (members === null) return false;
    // The same text as an already validated line is valid JSON; the rest is checked by parsing
    // it with those values replaced by 0 (strings, numbers and flat lists: nothing nests deep).
    let rest = '';
    let at = 0;
    let matched = 0;
    for (const [key, start, end] of members) {
      if (!spans.has(key)) continue;
      rest += text.slice(at, start) + '0';
      at = end;
      matched++;
    }
    if (matched !== TRAJECTORY_KEYS.length) return false;
    try {
      JSON.parse(rest + text.slice(at));
      return true;
    } catch {
      return false;
    }
  }

  repeats(rec: AwbLine): boolean {
    const prev = this.last;
    return prev !== null && String(prev.id) === String(rec.id) && prev.system_str === rec.system_str && sameStrings(prev.prompt, rec.prompt) && sameStrings(prev.response, rec.response);
  }

  /** Records a trajectory (read from `line`, when it is one line as written); false when its content was already seen under another id. */
  add(rec: AwbLine, key: string, line?: { lineNo: number; text: string }): boolean {
    this.last = rec;
    this.lastSpans = line ? spansOf(line.text) : null;
    // A prefix line of this id is covered by this line even when its content came under another id.
    const entry = line ? line.lineNo : digestOf(rec);
    const list = this.wholeById.get(String(rec.id));
    if (list) list.push(entry);
    else this.wholeById.set(String(rec.id), [entry]);
    if (this.keys.has(key)) return false;
    this.keys.add(key);
    return true;
  }

  addPrefix(rec: AwbLine, domain: Domain, lineNo: number): void {
    const id = String(rec.id);
    const list = this.prefixesById.get(id) ?? [];
    const same = list.find((p) => p.rec.system_str === rec.system_str && agreeOnOverlap(p.rec.prompt, rec.prompt) && agreeOnOverlap(p.rec.response, rec.response));
    if (!same) list.push({ rec, domain, lineNo });
    else if (rec.prompt.length > same.rec.prompt.length || (rec.prompt.length === same.rec.prompt.length && rec.response.length > same.rec.response.length)) {
      Object.assign(same, { rec, domain, lineNo });
    }
    this.prefixesById.set(id, list);
  }

  /**
   * Digests of the whole lines that share a sample id with a prefix line, read again from
   * `source` in one pass (none when no prefix line shares an id with a whole one).
   */
  private digestWholes(source: ImportSource): void {
    const wanted = new Set<number>();
    for (const id of this.prefixesById.keys()) for (const w of this.wholeById.get(id) ?? []) if (typeof w === 'number') wanted.add(w);
    if (wanted.size === 0) return;
    const digests = new Map<number, WholeDigest>();
    for (const line of source.lines()) {
      if (!wanted.has(line.lineNo) || line.error) continue;
      try {
        const parsed = AwbLine.safeParse(JSON.parse(line.text));
        if (parsed.success) digests.set(line.lineNo, digestOf(parsed.data));
      } catch {
        // It parsed on the first reading: the file changed since, and that line covers nothing.
      }
    }
    for (const id of this.prefixesById.keys()) {
      const list = this.wholeById.get(id);
      if (!list) continue;
      const read = list.flatMap((w) => (typeof w === 'number' ? (digests.has(w) ? [digests.get(w)!] : []) : [w]));
      list.splice(0, list.length, ...read);
    }
  }

  /** The merged prefixes that no whole line of their trajectory covers, in the order they first came. */
  *uncoveredPrefixes(source: ImportSource): Iterable<{ rec: AwbLine; domain: Domain; lineNo: number }> {
    this.digestWholes(source);
    for (const [id, list] of this.prefixesById) {
      const wholes = this.wholeById.get(id) ?? [];
      for (const prefix of list) if (!wholes.some((w) => typeof w !== 'number' && covers(w, prefix.rec))) yield prefix;
    }
  }
}

/** A source whose lines that repeat the last whole line (`repeatsText`) are left out before they are parsed. */
function withoutRepeatedLines(source: ImportSource, seen: SeenTrajectories): ImportSource {
  return {
    ...source,
    *lines() {
      // Read in step with the importer: each line is judged against what the lines before it added.
      for (const line of source.lines()) if (line.error || !seen.repeatsText(line.text)) yield line;
    },
  };
}

function spansOf(text: string): LineSpans | null {
  const members = topLevelMembers(text);
  if (members === null) return null;
  const spans: LineSpans = new Map();
  for (const [key, start, end] of members) if ((TRAJECTORY_KEYS as readonly string[]).includes(key)) spans.set(key, text.slice(start, end));
  return spans.size === TRAJECTORY_KEYS.length ? spans : null;
}

type Member = [key: string, start: number, end: number];

/**
 * The members of a JSON object written on one line, each with where its value's text starts
 * and ends, when every value is a string, a number, a literal or a list of strings (what an
 * AgentWorldBench line holds). Null for anything else (a nested object, an escaped or repeated
 * key, text that is not such an object): that line is then parsed as any other. Numbers and
 * literals are only delimited here; JSON.parse judges them. With `known`, the values of those
 * keys must be written exactly so (null otherwise), and are compared instead of scanned.
 */
function topLevelMembers(text: string, known?: LineSpans): Member[] | null {
  let i = skipSpace(text, 0);
  if (text.charCodeAt(i) !== 0x7b) return null;
  i = skipSpace(text, i + 1);
  const members: Member[] = [];
  if (text.charCodeAt(i) === 0x7d) return skipSpace(text, i + 1) === text.length ? members : null;
  for (;;) {
    if (text.charCodeAt(i) !== 0x22) return null;
    const keyEnd = stringEnd(text, i);
    if (keyEnd < 0) return null;
    const key = text.slice(i + 1, keyEnd - 1);
    if (key.includes('\\') || members.some((m) => m[0] === key)) return null;
    i = skipSpace(text, keyEnd);
    if (text.charCodeAt(i) !== 0x3a) return null;
    const start = skipSpace(text, i + 1);
    const same = known?.get(key);
    // A value written exactly as a known one is that whole value: compared, not scanned.
    const end = same === undefined ? valueEnd(text, start) : text.slice(start, start + same.length) === same ? start + same.length : -1;
    if (end < 0) return null;
    members.push([key, start, end]);
    i = skipSpace(text, end);
    const c = text.charCodeAt(i);
    if (c === 0x2c) i = skipSpace(text, i + 1);
    else if (c === 0x7d) return skipSpace(text, i + 1) === text.length ? members : null;
    else return null;
  }
}

function skipSpace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else return i;
  }
}

/** The index after the closing quote of the string opening at `i`, or -1. */
function stringEnd(text: string, i: number): number {
  for (let from = i + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The index after the value starting at `i` (a string, a list of strings, a number or a literal), or -1. */
function valueEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) return stringEnd(text, i);
  if (c === 0x5b) {
    let j = skipSpace(text, i + 1);
    if (text.charCodeAt(j) === 0x5d) return j + 1;
    for (;;) {
      if (text.charCodeAt(j) !== 0x22) return -1;
      j = stringEnd(text, j);
      if (j < 0) return -1;
      j = skipSpace(text, j);
      const d = text.charCodeAt(j);
      if (d === 0x5d) return j + 1;
      if (d !== 0x2c) return -1;
      j = skipSpace(text, j + 1);
    }
  }
  let j = i;
  for (;;) {
    const d = text.charCodeAt(j);
    // Digits, signs, the decimal point, exponents and the letters of true, false and null.
    if ((d >= 0x30 && d <= 0x39) || (d >= 0x61 && d <= 0x7a) || d === 0x2d || d === 0x2b || d === 0x2e || d === 0x45) j++;
    else return j > i ? j : -1;
  }
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A GUI prompt's blocks (task, screen before the action), when it has any. */
function guiOf(prompt: string): GuiBlocks | null {
  // Most prompts (every terminal, SWE and MCP one) have neither block: two searches settle it.
  if (!prompt.includes('**Task Instruction:**') && !prompt.includes('**Current State:**')) return null;
  const blocks = guiBlocksFromPrompt(prompt);
  if (blocks.taskInstruction == null && blocks.currentState == null) return null;
  return {
    ...(blocks.taskInstruction != null ? { taskInstruction: blocks.taskInstruction } : {}),
    ...(blocks.currentState != null ? { currentState: blocks.currentState } : {}),
  };
}

function bundleFromLine(
  rec: AwbLine,
  domain: Domain,
  key: string,
  file: string,
  lineNo: number,
  newId: () => string,
  now: string,
): TrajectoryBundle {
  const sampleId = String(rec.id);
  const guis = rec.prompt.map(guiOf);
  return chainBundle(
    {
      title: `${domain} · ${sampleId}`,
      domain,
      systemPrompt: rec.system_str,
      // A GUI trajectory's first screen is what the environment showed before any action.
      initialState: guis[0]?.currentState ?? '',
      sourceKey: key,
      rootProvenance: { source: { format: 'agentworldbench', file, line: lineNo, sampleId, task: rec.task } },
      steps: rec.prompt.map((prompt, i) => {
        const action = actionFromPrompt(prompt);
        const observation = observationFromResponse(rec.response[i]!);
        const gui = guis[i];
        return {
          action,
          observation,
          origin: 'imported' as const,
          provenance: {
            ...(gui ? { gui } : {}),
            source: {
              format: 'agentworldbench',
              file,
              line: lineNo,
              sampleId,
              // Kept only when rebuilding from the parsed parts would not give the same text.
              ...(promptForAction(i + 1, action, gui ?? undefined) !== prompt ? { rawAction: prompt } : {}),
              ...(responseForObservation(observation) !== rec.response[i] ? { rawObservation: rec.response[i] } : {}),
            },
          },
        };
      }),
    },
    newId,
    now,
  );
}
