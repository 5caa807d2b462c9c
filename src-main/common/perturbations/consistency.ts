// The consistency check of fictional worlds. A world specification's structured facts
// (`{subject, value}`) state what is true in the simulated world; this check finds
// statements in an observation that give a subject a different value. It reads text
// patterns only, never meaning, so it is documented precisely (see README.md):
//
//  1. key-value: `subject: X`, `subject = X`, `"subject": "X"` (JSON, YAML, env files,
//     tool output). X is a quoted string, or the text up to the end of the line, a comma,
//     a semicolon or a closing bracket. X agrees when it equals the value, or begins with
//     the value followed by a character that is not a letter, digit, `-` or `_`
//     (`atlas.internal` and `atlas (primary)` agree with `atlas`; `atlas-2` does not).
//  2. prose: `subject is X` (also are/was/were/equals). Only phrases that look like a name
//     or a number are judged: a single word, or words starting with a capital letter, a
//     digit or a quote. X agrees when it contains the value as whole words. Negated
//     statements (`is not`, `is no longer`, `is never`) are skipped, not judged.
//  3. shell prompt: for a subject named hostname/host/machine, the host of a prompt like
//     `agent@zeus:~$`; for user/username/login, its user. These must equal the value.
//
// Subjects match case-insensitively as whole words, with spaces, `_` and `-` treated
// alike (`host name` matches `host_name`). Values compare case-insensitively, ignoring
// surrounding quotes and trailing punctuation; two numbers compare as numbers.
import type { WorldSpec } from '../trajectory/model';

export interface ConsistencyFlag {
  subject: string;
  /** The fact's value. */
  expected: string;
  /** What the observation states instead. */
  found: string;
  rule: 'key-value' | 'prose' | 'shell-prompt';
  /** 1-based line of the observation where the statement is. */
  line: number;
  /** The statement as it appears. */
  excerpt: string;
  message: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function subjectPattern(subject: string): string {
  return subject.trim().split(/[\s_-]+/).map(escape).join('[\\s_-]+');
}

function normal(text: string): string {
  return text
    .trim()
    .replace(/^["'`“‘]+|["'`”’]+$/g, '')
    .replace(/[.,;:!?]+$/, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

function sameNumber(a: string, b: string): boolean {
  const numeric = /^-?\d+(?:\.\d+)?$/;
  return numeric.test(a) && numeric.test(b) && Number(a) === Number(b);
}

/** Key-value rule: equal, or the value followed by a separator (`atlas.internal`). */
function agreesStrictly(found: string, value: string): boolean {
  if (found === value || sameNumber(found, value)) return true;
  return found.startsWith(value) && /^[^\p{L}\p{N}_-]/u.test(found.slice(value.length));
}

/** Prose rule: the value appears in the phrase as whole words. */
function containsWords(found: string, value: string): boolean {
  return new RegExp(`(?<![\\p{L}\\p{N}])${escape(value)}(?![\\p{L}\\p{N}])`, 'u').test(found) || sameNumber(found, value);
}

const looksLikeName = (phrase: string) => !/\s/.test(phrase.trim()) || /^["'“‘\p{Lu}\p{N}]/u.test(phrase.trim());

const HOST_SUBJECTS = new Set(['hostname', 'host', 'machine', 'machinename', 'computername']);
const USER_SUBJECTS = new Set(['user', 'username', 'login', 'loginname']);
const PROMPT = /(?<![\w.-])([a-z_][\w.-]*)@([\w-]+)(?:\.[\w.-]+)?:[^\n$#]{0,200}[$#]/g;

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Flags statements in `observation` that contradict the structured facts of `spec`. */
export function checkConsistency(spec: WorldSpec | null | undefined, observation: string): ConsistencyFlag[] {
  const flags: ConsistencyFlag[] = [];
  const seen = new Set<string>();
  const flag = (subject: string, expected: string, found: string, rule: ConsistencyFlag['rule'], index: number, excerpt: string) => {
    const line = lineAt(observation, index);
    const key = `${subject}\u0000${normal(found)}\u0000${line}`;
    if (seen.has(key)) return;
    seen.add(key);
    const shown = found.trim();
    flags.push({ subject, expected, found: shown, rule, line, excerpt: excerpt.trim(), message: `Line ${line} says ${subject} is "${shown}", but the world specification says "${expected}".` });
  };

  for (const fact of spec?.facts ?? []) {
    const value = normal(fact.value);
    if (!fact.subject.trim() || !value) continue;
    const subj = subjectPattern(fact.subject);

    const keyValue = new RegExp(`(?<![\\w])["']?${subj}["']?[ \\t]*(?::|=(?!=))[ \\t]*(?:"([^"\\n]*)"|'([^'\\n]*)'|([^\\n,;}\\]]*))`, 'giu');
    for (const m of observation.matchAll(keyValue)) {
      const found = m[1] ?? m[2] ?? m[3] ?? '';
      if (normal(found) && !agreesStrictly(normal(found), value)) flag(fact.subject, fact.value, found, 'key-value', m.index, m[0]);
    }

    const prose = new RegExp(`(?<![\\w])${subj}\\s+(?:is|are|was|were|equals)\\s+(?!not\\b|never\\b|no longer\\b)([^\\n;,!?]*?)(?=[;,!?\\n]|\\.(?:\\s|$)|$)`, 'giu');
    for (const m of observation.matchAll(prose)) {
      const found = m[1] ?? '';
      if (normal(found) && looksLikeName(found) && !containsWords(normal(found), value)) flag(fact.subject, fact.value, found, 'prose', m.index, m[0]);
    }

    const kind = fact.subject.toLowerCase().replace(/[\s_-]+/g, '');
    if (HOST_SUBJECTS.has(kind) || USER_SUBJECTS.has(kind)) {
      for (const m of observation.matchAll(PROMPT)) {
        const found = HOST_SUBJECTS.has(kind) ? m[2]! : m[1]!;
        if (normal(found) !== value) flag(fact.subject, fact.value, found, 'shell-prompt', m.index, m[0]);
      }
    }
  }
  return flags.sort((a, b) => a.line - b.line);
}
