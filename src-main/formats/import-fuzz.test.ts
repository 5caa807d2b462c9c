// Seeded fuzzing of every importer: the project's fixtures and the real-world files (when
// ../shared/fixtures/real-world/ is there) are truncated, given the wrong type, null, a huge
// string or deep nesting at JSON paths picked at random, and read by their own importer and
// by the one detection picks. Every failure must be one a user can act on: an ImportFormatError
// or UserError that says what to do, or a problem in the report that says what was wrong —
// never a TypeError or RangeError, nor a problem that only repeats one.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../common/seeded-random';
import { UserError } from '../common/user-error';
import { ImportFormatError, type ImportItem } from '../parsing/import-item';
import { textSource } from '../parsing/sources';
import { generatedAwb } from '../testing/awb-fixtures';
import { fixture } from '../testing/importer-fixtures';
import { UnknownFormatError } from './format';
import { importerFor } from './registry';
import { realWorld, realWorldNote } from '../testing/real-world';

const REAL_WORLD = realWorld();
/** Mutations of each file; a large file gets fewer, so the whole run stays within seconds. WL_FUZZ_SEED=N explores other mutations. */
const MUTATIONS = 12;
const SEED = Number(process.env.WL_FUZZ_SEED ?? 0x35);

/** What a JavaScript fault says; a message a person can act on never reads like this. */
const FAULT = /Cannot read propert|Cannot set propert|is not a function|is not iterable|is not an object|Invalid string length|Invalid array length|Maximum call stack|\bundefined\b|\[object Object\]|Cannot convert/;

interface Sample {
  name: string;
  format: string;
  text: string;
}

const worldloomLine = () =>
  JSON.stringify({
    format: 'worldloom.trajectory',
    version: 1,
    trajectory: { id: 't-fz', title: 'fuzz', domain: 'terminal', systemPrompt: '', worldSpec: null, sourceKey: null, createdAt: '2024-01-01T00:00:00Z' },
    nodes: [
      { id: 'n-fz', trajectoryId: 't-fz', parentId: null, editedFromId: null, depth: 0, action: '', observation: '$', reasoning: null, origin: 'imported', provenance: {}, curation: { starred: false, rating: null, tags: [], note: '' }, metrics: null, createdAt: '2024-01-01T00:00:00Z' },
      { id: 'n-fz2', trajectoryId: 't-fz', parentId: 'n-fz', editedFromId: null, depth: 1, action: 'ls', observation: 'a b', reasoning: null, origin: 'imported', provenance: {}, curation: { starred: false, rating: null, tags: [], note: '' }, metrics: null, createdAt: '2024-01-01T00:00:00Z' },
    ],
  });

function projectSamples(): Sample[] {
  const own: [string, string][] = [
    ['acme__tinyjson-42.traj', 'swe-agent'],
    ['build-session.cast', 'asciinema'],
    ['typed-session.cast', 'asciinema'],
    ['claude-code-session.jsonl', 'claude-code'],
    ['codex-rollout-2025-10-02.jsonl', 'codex-rollout'],
    ['gemini-cli-session.json', 'gemini-cli'],
    ['inspect-log.json', 'inspect-log'],
    ['notes-server.mcp.jsonl', 'mcp-jsonrpc-log'],
    ['otel-genai-trace.json', 'otel-genai'],
    ['trajectory.json', 'atif'],
    ['weather-errors.vcr', 'mcp-cassette'],
  ];
  const chat = [
    { messages: [{ role: 'system', content: 'You simulate a shell.' }, { role: 'user', content: 'ls' }, { role: 'assistant', content: 'a b' }, { role: 'user', content: 'pwd' }, { role: 'assistant', content: '/home' }] },
  ];
  const sharegpt = [{ conversations: [{ from: 'system', value: 'You simulate a shell.' }, { from: 'human', value: 'ls' }, { from: 'gpt', value: 'a b' }] }];
  return [
    ...own.map(([name, format]) => ({ name, format, text: fixture(format, name) })),
    { name: 'terminal_test.jsonl', format: 'agentworldbench', text: generatedAwb(2, 3).join('\n') + '\n' },
    { name: 'export.jsonl', format: 'jsonl', text: worldloomLine() + '\n' },
    { name: 'chat.jsonl', format: 'messages', text: chat.map((c) => JSON.stringify(c)).join('\n') + '\n' },
    { name: 'sharegpt.jsonl', format: 'sharegpt', text: sharegpt.map((c) => JSON.stringify(c)).join('\n') + '\n' },
  ];
}

/** The real-world files and the format each is read as (by detection: the README says what each is). */
function realWorldSamples(): Sample[] {
  const out: Sample[] = [];
  for (const kind of readdirSync(REAL_WORLD)) {
    const folder = join(REAL_WORLD, kind);
    if (!statSync(folder).isDirectory()) continue;
    for (const name of readdirSync(folder)) {
      const text = readFileSync(join(folder, name), 'utf8');
      let format: string;
      try {
        format = importerFor('auto', name, text.slice(0, 64 * 1024)).id;
      } catch {
        continue; // a file no importer takes (the README names one): detection already says so
      }
      out.push({ name, format, text });
    }
  }
  return out;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path into a JSON value, the root included. */
function paths(value: Json, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (out.length > 5000) return out;
  if (Array.isArray(value)) value.forEach((v, i) => paths(v, [...at, i], out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) paths(v, [...at, k], out);
  return out;
}

function replaceAt(root: Json, path: (string | number)[], make: (old: Json) => Json | typeof DELETE): Json {
  if (path.length === 0) {
    const v = make(root);
    return v === DELETE ? null : v;
  }
  const copy = structuredClone(root) as Json;
  let node = copy as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  const last = path.at(-1)!;
  const v = make(node[last]!);
  if (v === DELETE) {
    if (Array.isArray(node)) node.splice(last as number, 1);
    else delete node[last];
  } else node[last] = v;
  return copy;
}

const DELETE = Symbol('delete');

/** The values a field is wrongly given: each type in turn, null, a huge string, deep nesting. */
const WRONG: ((old: Json) => Json | typeof DELETE)[] = [
  () => null,
  () => DELETE,
  () => 12345,
  () => -1.5,
  () => true,
  () => '',
  () => 'a string where something else belongs',
  () => [],
  () => [null, 1, 'x'],
  () => ({}),
  () => ({ unexpected: [1, 2, 3] }),
  () => 'x'.repeat(300_000),
  () => JSON.parse('['.repeat(200) + ']'.repeat(200)) as Json,
  () => JSON.parse('{"a":'.repeat(150) + '1' + '}'.repeat(150)) as Json,
  (old) => (typeof old === 'string' ? Number(old.length) : typeof old === 'number' ? String(old) : Array.isArray(old) ? { ...old } : old && typeof old === 'object' ? Object.values(old) : [old]),
];

/** One mutation of a JSON value at a random path. */
function mutateJson(value: Json, rnd: () => number): Json {
  const all = paths(value);
  const path = all[Math.floor(rnd() * all.length)]!;
  return replaceAt(value, path, WRONG[Math.floor(rnd() * WRONG.length)]!);
}

/** A file's text, mutated once: truncated, or one JSON document or line changed at one path. */
function mutate(text: string, rnd: () => number): { how: string; text: string } {
  const r = rnd();
  if (r < 0.2) {
    const at = Math.floor(rnd() * text.length);
    return { how: `truncated at ${at}`, text: text.slice(0, at) };
  }
  let doc: Json | undefined;
  try {
    doc = JSON.parse(text) as Json;
  } catch {
    doc = undefined;
  }
  if (doc !== undefined) return { how: 'a JSON path changed', text: JSON.stringify(mutateJson(doc, rnd), null, rnd() < 0.5 ? 2 : undefined) };
  // Lines: change one JSON line at one path (or, now and then, duplicate or drop one).
  const lines = text.split('\n');
  const candidates = lines.map((l, i) => [l, i] as const).filter(([l]) => l.trim().startsWith('{') || l.trim().startsWith('['));
  if (candidates.length === 0) return { how: 'truncated at half', text: text.slice(0, text.length / 2) };
  const [line, i] = candidates[Math.floor(rnd() * candidates.length)]!;
  if (r < 0.25) {
    lines.splice(i, 1);
    return { how: `line ${i + 1} dropped`, text: lines.join('\n') };
  }
  let value: Json;
  try {
    value = JSON.parse(line) as Json;
  } catch {
    return { how: `line ${i + 1} cut`, text: [...lines.slice(0, i), line.slice(0, line.length / 2), ...lines.slice(i + 1)].join('\n') };
  }
  lines[i] = JSON.stringify(mutateJson(value, rnd));
  return { how: `line ${i + 1} changed at a JSON path`, text: lines.join('\n') };
}

/** Reads `text` with the importer for `format` ('auto': detection picks); what went wrong that a user could not act on, or null. */
function fault(name: string, text: string, format: string): string | null {
  let items: ImportItem[];
  try {
    const importer = importerFor(format, name, text.slice(0, 64 * 1024));
    if (importer.prepare) return null; // binary formats (Parquet) are not text; parquet-rows.test.ts bounds them
    let n = 0;
    items = [...importer.parse(textSource(name, text), () => `fz-${n++}`, '2024-06-10T00:00:00Z')];
  } catch (error) {
    if (error instanceof ImportFormatError || error instanceof UserError || error instanceof UnknownFormatError) {
      return FAULT.test(error.message) ? `${(error as Error).constructor.name} that reads like a fault: ${error.message}` : null;
    }
    return `${(error as Error).name}: ${(error as Error).message}\n${(error as Error).stack?.split('\n').slice(1, 4).join('\n')}`;
  }
  for (const item of items) {
    if (item.kind === 'problem' && FAULT.test(item.reason)) return `a problem that reads like a fault: ${item.reason}`;
    if (item.kind === 'skipped' && FAULT.test(`${item.what} ${item.reason}`)) return `a skipped part that reads like a fault: ${item.what}: ${item.reason}`;
  }
  return null;
}

function fuzz(samples: Sample[], seed: number): string[] {
  const rnd = mulberry32(seed);
  const found = new Map<string, string>();
  for (const sample of samples) {
    const rounds = sample.text.length > 200_000 ? 3 : sample.text.length > 50_000 ? 6 : MUTATIONS;
    for (let k = 0; k < rounds; k++) {
      const { how, text } = mutate(sample.text, rnd);
      for (const format of [sample.format, 'auto']) {
        const f = fault(sample.name, text, format);
        // One line per distinct fault: the same bug met twice is one bug.
        if (f && !found.has(f.split('\n')[0]!)) found.set(f.split('\n')[0]!, `${sample.name} (${how}) read as ${format}: ${f}`);
      }
    }
  }
  return [...found.values()];
}

describe('every importer, fuzzed', () => {
  it('fails only with errors a user can act on, on mutations of the project\'s fixtures', { timeout: 60_000 }, () => {
    expect(fuzz(projectSamples(), SEED)).toEqual([]);
  });

  it.skipIf(!existsSync(REAL_WORLD))(`fails only with errors a user can act on, on mutations of the real-world files (${realWorldNote()})`, { timeout: 60_000 }, () => {
    expect(fuzz(realWorldSamples(), SEED + 1)).toEqual([]);
  });

  it('reads every fixture with every importer without a fault', () => {
    const faults: string[] = [];
    const formats = [...new Set(projectSamples().map((s) => s.format))];
    for (const sample of projectSamples()) {
      for (const format of formats) {
        const f = fault(sample.name, sample.text, format);
        if (f) faults.push(`${sample.name} read as ${format}: ${f}`);
      }
    }
    expect(faults).toEqual([]);
  });
});
