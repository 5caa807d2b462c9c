// User-defined perturbations: kinds declared in a JSON file in the workspace (format in
// README.md). The file is validated in full before anything is used, and every problem
// is reported with its JSON path and what to do, so a user fixes the file in one pass.
import { z } from 'zod';
import { Domain, DOMAINS } from '../trajectory/model';
import { commandOf } from './catalog/action-hints';
import { keepLines } from './catalog/shell-output';
import { jsonSyntaxErrorAt } from './json-syntax';
import type { ParamsSchema, PerturbationContext, PerturbationKind, PerturbationParams } from './kind';
import { perturbationCatalog, type PerturbationRegistry } from './registry';
import type { Rng } from './rng';

const description = z.string().optional();
const ParamSpec = z.discriminatedUnion('type', [
  z.object({ type: z.literal('string'), default: z.string(), description }).strict(),
  z.object({ type: z.literal('number'), default: z.number(), min: z.number().optional(), max: z.number().optional(), description }).strict(),
  z.object({ type: z.literal('integer'), default: z.number().int(), min: z.number().int().optional(), max: z.number().int().optional(), description }).strict(),
  z.object({ type: z.literal('boolean'), default: z.boolean(), description }).strict(),
  z.object({ type: z.literal('enum'), values: z.array(z.string().min(1)).min(1), default: z.string(), description }).strict(),
]);
type ParamSpec = z.infer<typeof ParamSpec>;

const flags = z.string().regex(/^[gimsu]*$/, 'flags may only contain g, i, m, s and u').optional();
const Op = z.discriminatedUnion('op', [
  z.object({ op: z.literal('replace'), pattern: z.string().min(1), flags, with: z.string() }).strict(),
  z.object({ op: z.literal('prepend'), text: z.string() }).strict(),
  z.object({ op: z.literal('append'), text: z.string() }).strict(),
  z.object({
    op: z.literal('truncate'),
    keep: z.union([z.number().min(0).max(1), z.string().regex(/^\{\{\s*\w+\s*\}\}$/, 'keep must be a number from 0 to 1 or one "{{param}}" naming a number param')]),
    unit: z.enum(['lines', 'chars']).optional(),
    marker: z.string().optional(),
  }).strict(),
  z.object({ op: z.literal('replace-whole'), text: z.string() }).strict(),
  z.object({ op: z.literal('delete-lines'), matching: z.string().min(1), flags }).strict(),
]);
type Op = z.infer<typeof Op>;

const UserKind = z
  .object({
    id: z.string().regex(/^[a-z][a-z0-9-]*(?:\.[a-z0-9][a-z0-9-]*)+$/, 'ids are lowercase words joined by dots, like "terminal.quota-exceeded"'),
    domain: Domain,
    label: z.string().min(1).max(80),
    description: z.string().default(''),
    version: z.number().int().min(1).default(1),
    params: z.record(z.string().regex(/^[A-Za-z_]\w*$/, 'param names are letters, digits and _'), ParamSpec).default({}),
    instruction: z.string().min(1),
    transform: z.array(Op).min(1),
  })
  .strict();
type UserKind = z.infer<typeof UserKind>;

// Entries are checked one by one (below) so a broken entry does not hide the problems of the others.
const UserFile = z.object({ version: z.literal(1), perturbations: z.array(z.unknown()).min(1) }).strict();

export interface UserFileProblem {
  /** JSON path of the offending value, like `perturbations[1].transform[0].pattern`. */
  path: string;
  message: string;
}

export type UserPerturbationLoad =
  | { ok: true; kinds: PerturbationKind[] }
  | { ok: false; message: string; problems: UserFileProblem[] };

/** Placeholders every template may use besides its params. */
const BUILT_INS = ['action', 'domain', 'command'];
const PLACEHOLDER = /\{\{\s*([\w]+)(?::([^}]*))?\s*\}\}/g;

function jsonPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, p) => (typeof p === 'number' ? `${out}[${p}]` : out ? `${out}.${String(p)}` : String(p)), '') || '(file)';
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>((v, p) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[p] : undefined), root);
}

/** A zod issue in the user's terms: what is wrong at that path and what to do about it. */
function describeIssue(issue: z.core.$ZodIssue, root: unknown): UserFileProblem {
  const path = jsonPath(issue.path);
  const actual = valueAt(root, issue.path);
  const field = String(issue.path[issue.path.length - 1] ?? '');
  switch (issue.code) {
    case 'invalid_type':
      return actual === undefined
        ? { path, message: `"${field}" is missing: add it (${issue.expected}).` }
        : { path, message: `expected ${issue.expected}, found ${Array.isArray(actual) ? 'array' : actual === null ? 'null' : typeof actual}.` };
    case 'invalid_value':
      return field === 'domain'
        ? { path, message: `unknown domain ${JSON.stringify(actual)}: use one of ${DOMAINS.join(', ')}.` }
        : { path, message: `must be ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}, found ${JSON.stringify(actual)}.` };
    case 'invalid_union':
      if ('options' in issue && issue.discriminator) {
        return { path, message: `unknown ${issue.discriminator} ${JSON.stringify(actual)}: use one of ${(issue.options ?? []).join(', ')}.` };
      }
      return { path, message: `${issue.message}.` };
    case 'unrecognized_keys':
      return { path, message: `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}: remove ${issue.keys.length > 1 ? 'them' : 'it'} or fix the spelling.` };
    case 'invalid_key':
      return { path, message: `${issue.issues[0]?.message ?? 'invalid name'}; rename it.` };
    case 'too_small':
      return { path, message: issue.origin === 'array' ? `needs at least ${issue.minimum} entr${issue.minimum === 1 ? 'y' : 'ies'}.` : `${issue.message}.` };
    default:
      return { path, message: `${issue.message}.` };
  }
}

/** Checks the file's zod schema cannot express: regexes, placeholders, defaults, ids. */
function semanticProblems(kinds: [index: number, kind: UserKind][], known: PerturbationRegistry): UserFileProblem[] {
  const problems: UserFileProblem[] = [];
  const ids = new Map<string, number>();
  kinds.forEach(([k, kind]) => {
    const at = `perturbations[${k}]`;
    if (!kind.id.startsWith(`${kind.domain}.`)) problems.push({ path: `${at}.id`, message: `must start with its domain, "${kind.domain}." (for example "${kind.domain}.${kind.id.split('.').pop()}").` });
    if (ids.has(kind.id)) problems.push({ path: `${at}.id`, message: `"${kind.id}" is already used by perturbations[${ids.get(kind.id)}]: give each kind its own id.` });
    else if (known.byId(kind.id)) problems.push({ path: `${at}.id`, message: `"${kind.id}" is a ${known.byId(kind.id)!.source} kind already: choose another id.` });
    ids.set(kind.id, k);
    for (const [name, spec] of Object.entries(kind.params)) {
      const p = `${at}.params.${name}`;
      if (BUILT_INS.includes(name) || name === 'observation' || name === 'pick') problems.push({ path: p, message: `"${name}" is a built-in placeholder: rename the param.` });
      if (spec.type === 'enum' && !spec.values.includes(spec.default)) problems.push({ path: `${p}.default`, message: `"${spec.default}" is not one of values (${spec.values.join(', ')}): use one of them.` });
      if ((spec.type === 'number' || spec.type === 'integer') && ((spec.min !== undefined && spec.default < spec.min) || (spec.max !== undefined && spec.default > spec.max))) {
        problems.push({ path: `${p}.default`, message: `${spec.default} is outside min/max: pick a default in range.` });
      }
    }
    const checkTemplate = (text: string, path: string, inTransform: boolean) => {
      for (const m of text.matchAll(PLACEHOLDER)) {
        const name = m[1]!;
        if (name === 'pick') {
          if (!inTransform) problems.push({ path, message: '{{pick:…}} is random and only allowed in transform ops; write the instruction without it.' });
          else if (!m[2]?.includes('|')) problems.push({ path, message: '{{pick:…}} needs two or more choices separated by |, like {{pick:a|b}}.' });
        } else if (name === 'observation' ? !inTransform : !Object.hasOwn(kind.params, name) && !BUILT_INS.includes(name)) {
          const declared = Object.keys(kind.params);
          problems.push({ path, message: `unknown placeholder {{${name}}}: declare it under params or use ${[...declared, ...BUILT_INS, ...(inTransform ? ['observation'] : [])].map((n) => `{{${n}}}`).join(', ')}.` });
        }
      }
    };
    checkTemplate(kind.instruction, `${at}.instruction`, false);
    kind.transform.forEach((op, o) => {
      const p = `${at}.transform[${o}]`;
      for (const [key, value] of Object.entries(op)) {
        if (['text', 'with', 'marker'].includes(key) && typeof value === 'string') checkTemplate(value, `${p}.${key}`, true);
      }
      if (op.op === 'replace' || op.op === 'delete-lines') {
        const pattern = op.op === 'replace' ? op.pattern : op.matching;
        try {
          new RegExp(pattern, op.flags);
        } catch (err) {
          problems.push({ path: `${p}.${op.op === 'replace' ? 'pattern' : 'matching'}`, message: `not a valid regular expression (${(err as Error).message}): fix it; remember to escape backslashes in JSON ("\\\\d").` });
        }
      }
      if (op.op === 'truncate' && typeof op.keep === 'string') {
        const name = /\w+/.exec(op.keep)![0];
        const spec = Object.hasOwn(kind.params, name) ? kind.params[name] : undefined;
        if (!spec || (spec.type !== 'number' && spec.type !== 'integer')) problems.push({ path: `${p}.keep`, message: `"${name}" must be a declared number param (a fraction from 0 to 1).` });
      }
    });
  });
  return problems;
}

function paramsSchema(params: Record<string, ParamSpec>): ParamsSchema {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, spec] of Object.entries(params)) {
    let field: z.ZodType;
    if (spec.type === 'number' || spec.type === 'integer') {
      let n = spec.type === 'integer' ? z.number().int() : z.number();
      if (spec.min !== undefined) n = n.min(spec.min);
      if (spec.max !== undefined) n = n.max(spec.max);
      field = n.default(spec.default);
    } else if (spec.type === 'enum') field = z.enum(spec.values as [string, ...string[]]).default(spec.default);
    else if (spec.type === 'boolean') field = z.boolean().default(spec.default);
    else field = z.string().default(spec.default);
    shape[name] = spec.description ? field.describe(spec.description) : field;
  }
  return z.object(shape) as unknown as ParamsSchema;
}

function render(template: string, params: PerturbationParams, ctx: PerturbationContext, extra: { observation?: string; rng?: Rng; forReplacement?: boolean }): string {
  return template.replace(PLACEHOLDER, (_m, name: string, choices?: string) => {
    let value: string;
    if (name === 'pick') value = extra.rng!.pick(choices!.split('|'));
    else if (name === 'observation') value = extra.observation ?? '';
    else if (name === 'action') value = ctx.action;
    else if (name === 'domain') value = ctx.domain;
    else if (name === 'command') value = commandOf(ctx.action);
    else value = String(params[name]);
    // In a regex replacement `$` is special; inserted values are taken literally.
    return extra.forReplacement ? value.replace(/\$/g, '$$$$') : value;
  });
}

function applyOp(observation: string, op: Op, params: PerturbationParams, rng: Rng, ctx: PerturbationContext): string {
  const t = (text: string, forReplacement = false) => render(text, params, ctx, { observation, rng, forReplacement });
  switch (op.op) {
    case 'replace':
      return observation.replace(new RegExp(op.pattern, op.flags), t(op.with, true));
    case 'prepend':
      return t(op.text) + observation;
    case 'append':
      return observation + t(op.text);
    case 'replace-whole':
      return t(op.text);
    case 'delete-lines': {
      const re = new RegExp(op.matching, (op.flags ?? '').replace('g', ''));
      return observation.split('\n').filter((l) => !re.test(l)).join('\n');
    }
    case 'truncate': {
      const fraction = typeof op.keep === 'number' ? op.keep : Number(params[/\w+/.exec(op.keep)![0]]);
      const kept = op.unit === 'chars' ? observation.slice(0, Math.floor(observation.length * fraction)) : keepLines(observation, fraction);
      return kept + (op.marker ? t(op.marker) : '');
    }
  }
}

function toKind(spec: UserKind, fileName: string): PerturbationKind {
  return {
    id: spec.id,
    domain: spec.domain,
    label: spec.label,
    description: spec.description,
    version: spec.version,
    source: fileName,
    params: paramsSchema(spec.params),
    instruction: (params, ctx) => render(spec.instruction, params, ctx, {}),
    transform: (observation, params, rng, ctx) => spec.transform.reduce((obs, op) => applyOp(obs, op, params, rng, ctx), observation),
  };
}

/**
 * Reads a user perturbation file. Returns its kinds, or every problem found with its
 * JSON path. `known` holds the kinds already installed, whose ids the file may not reuse.
 */
export function loadUserPerturbations(text: string, fileName: string, known: PerturbationRegistry = perturbationCatalog): UserPerturbationLoad {
  const refuse = (problems: UserFileProblem[]): UserPerturbationLoad => ({
    ok: false,
    problems,
    message: `${fileName} has ${problems.length} problem${problems.length === 1 ? '' : 's'} and was not loaded:\n${problems.map((p) => `- ${p.path}: ${p.message}`).join('\n')}`,
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    const at = jsonSyntaxErrorAt(text);
    const where = at ? ` at line ${at.line}, column ${at.column}` : '';
    return refuse([{ path: '(file)', message: `not valid JSON${where} (${(err as Error).message}): fix the syntax.` }]);
  }
  const file = UserFile.safeParse(json);
  if (!file.success) return refuse(file.error.issues.map((issue) => describeIssue(issue, json)));
  const problems: UserFileProblem[] = [];
  const kinds: [number, UserKind][] = [];
  file.data.perturbations.forEach((entry, i) => {
    const kind = UserKind.safeParse(entry);
    if (kind.success) kinds.push([i, kind.data]);
    else problems.push(...kind.error.issues.map((issue) => describeIssue({ ...issue, path: ['perturbations', i, ...issue.path] }, json)));
  });
  problems.push(...semanticProblems(kinds, known));
  // Reported entry by entry, in file order, whichever check found them.
  const entry = (p: UserFileProblem) => Number(/^perturbations\[(\d+)\]/.exec(p.path)?.[1] ?? -1);
  if (problems.length > 0) return refuse(problems.sort((a, b) => entry(a) - entry(b)));
  return { ok: true, kinds: kinds.map(([, k]) => toKind(k, fileName)) };
}
