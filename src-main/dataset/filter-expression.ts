// The filter language behind `--filter` and the export dialog, e.g.
//   domain in (terminal, swe) and (starred or rating >= 4) and not perturbation = terminal.disk-full
// Pure. Parsing checks every field, operator and value up front, so a typo is reported
// with its column before any export starts, never discovered as "0 examples".
import { closestField, fieldNamed, FILTER_FIELDS, type FieldKind, type FilterField, type NodeFacts } from './filter-fields';

export class FilterError extends Error {
  constructor(
    message: string,
    /** 1-based column where the problem starts. */
    readonly column: number,
  ) {
    super(`${message} (at column ${column})`);
    this.name = 'FilterError';
  }
}

export type NodePredicate = (facts: NodeFacts) => boolean;

type Token =
  | { type: 'word'; text: string; column: number }
  | { type: 'string'; text: string; column: number }
  | { type: 'op'; text: string; column: number }
  | { type: '(' | ')' | ',' | 'end'; text: string; column: number };

const OPERATORS = ['==', '!=', '<=', '>=', '!~', '=', '<', '>', '~'];
const WORD_END = /[\s()"',=!<>~]/;

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    const column = i + 1;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')' || c === ',') {
      tokens.push({ type: c, text: c, column });
      i++;
    } else if (c === '"' || c === "'") {
      let text = '';
      let j = i + 1;
      while (j < source.length && source[j] !== c) {
        if (source[j] === '\\' && j + 1 < source.length) j++;
        text += source[j];
        j++;
      }
      if (j >= source.length) throw new FilterError(`The quote ${c} is never closed`, column);
      tokens.push({ type: 'string', text, column });
      i = j + 1;
    } else {
      const op = OPERATORS.find((o) => source.startsWith(o, i));
      if (op) {
        tokens.push({ type: 'op', text: op === '==' ? '=' : op, column });
        i += op.length;
        continue;
      }
      let j = i;
      while (j < source.length && !WORD_END.test(source[j]!)) j++;
      tokens.push({ type: 'word', text: source.slice(i, j), column });
      i = j;
    }
  }
  tokens.push({ type: 'end', text: '', column: source.length + 1 });
  return tokens;
}

const OPS_BY_KIND: Record<FieldKind, readonly string[]> = {
  enum: ['=', '!=', '~', '!~', 'in'],
  text: ['=', '!=', '~', '!~', 'in'],
  set: ['=', '!=', '~', '!~', 'in'],
  number: ['=', '!=', '<', '<=', '>', '>=', 'in'],
  date: ['=', '!=', '<', '<=', '>', '>='],
  boolean: ['=', '!='],
};

const isKeyword = (t: Token, word: string) => t.type === 'word' && t.text.toLowerCase() === word;

/** Parses an expression into a predicate over one node; an empty expression keeps everything. */
export function parseFilter(source: string): NodePredicate {
  const tokens = tokenize(source);
  let pos = 0;
  const peek = () => tokens[pos]!;
  const next = () => tokens[pos++]!;

  const orExpr = (): NodePredicate => {
    let left = andExpr();
    while (isKeyword(peek(), 'or')) {
      next();
      const l = left;
      const r = andExpr();
      left = (f) => l(f) || r(f);
    }
    return left;
  };
  const andExpr = (): NodePredicate => {
    let left = unary();
    while (isKeyword(peek(), 'and')) {
      next();
      const l = left;
      const r = unary();
      left = (f) => l(f) && r(f);
    }
    return left;
  };
  const unary = (): NodePredicate => {
    const t = peek();
    if (isKeyword(t, 'not')) {
      next();
      const inner = unary();
      return (f) => !inner(f);
    }
    if (t.type === '(') {
      next();
      const inner = orExpr();
      if (peek().type !== ')') throw new FilterError(`The parenthesis opened at column ${t.column} is never closed`, peek().column);
      next();
      return inner;
    }
    return comparison();
  };
  const comparison = (): NodePredicate => {
    const t = next();
    if (t.type !== 'word' || ['and', 'or', 'in'].includes(t.text.toLowerCase())) {
      const what = t.type === 'end' ? 'the end of the filter' : `"${t.text}"`;
      throw new FilterError(`Expected a field name such as domain, origin, rating or tag, found ${what}`, t.column);
    }
    const field = fieldNamed(t.text);
    if (!field) {
      const near = closestField(t.text);
      throw new FilterError(
        `Unknown field "${t.text}"${near ? `; did you mean "${near}"?` : ''} Fields: ${Object.keys(FILTER_FIELDS).join(', ')}, metric.NAME`,
        t.column,
      );
    }
    const opToken = peek();
    const negatedIn = isKeyword(opToken, 'not') && isKeyword(tokens[pos + 1]!, 'in');
    const op = opToken.type === 'op' ? opToken.text : isKeyword(opToken, 'in') || negatedIn ? 'in' : null;
    // A bare field asks whether it has a value: `starred`, `perturbation`, `rating`, `reasoning`.
    if (op === null) return (f) => hasValue(field.read(f));
    next();
    if (negatedIn) next();
    if (!OPS_BY_KIND[field.kind].includes(op)) {
      throw new FilterError(`"${op}" does not apply to ${t.text} (${field.about}); use ${OPS_BY_KIND[field.kind].join(', ')}`, opToken.column);
    }
    if (op === 'in') {
      const values = valueList(t.text, opToken);
      const test = values.map((v) => compile(field, t.text, '=', v));
      return negatedIn ? (f) => !test.some((p) => p(f)) : (f) => test.some((p) => p(f));
    }
    const value = next();
    if (value.type !== 'word' && value.type !== 'string') {
      throw new FilterError(`Expected a value after "${t.text} ${op}"`, value.column);
    }
    return compile(field, t.text, op, value);
  };
  const valueList = (name: string, at: Token): Token[] => {
    if (next().type !== '(') throw new FilterError(`Write "${name} in (a, b, …)" with the values in parentheses`, at.column);
    const values: Token[] = [];
    for (;;) {
      const v = next();
      if (v.type !== 'word' && v.type !== 'string') throw new FilterError(`Expected a value in the list after "${name} in ("`, v.column);
      values.push(v);
      const sep = next();
      if (sep.type === ')') return values;
      if (sep.type !== ',') throw new FilterError(`Expected "," or ")" in the list of values`, sep.column);
    }
  };

  if (peek().type === 'end') return () => true;
  const predicate = orExpr();
  const rest = peek();
  if (rest.type !== 'end') {
    throw new FilterError(`Unexpected "${rest.text}"; join conditions with "and" or "or"`, rest.column);
  }
  return predicate;
}

function hasValue(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  return v !== null && v !== undefined && v !== false && v !== '';
}

function compile(field: FilterField, name: string, op: string, token: Token): NodePredicate {
  const raw = token.text;
  const negate = op === '!=' || op === '!~';
  const wrap = (test: (v: ReturnType<FilterField['read']>) => boolean): NodePredicate =>
    negate ? (f) => !test(field.read(f)) : (f) => test(field.read(f));
  switch (field.kind) {
    case 'boolean': {
      const lower = raw.toLowerCase();
      if (lower !== 'true' && lower !== 'false') throw new FilterError(`${name} is true or false, not "${raw}"`, token.column);
      const want = lower === 'true';
      return wrap((v) => v === want);
    }
    case 'number': {
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) throw new FilterError(`${name} takes a number; "${raw}" is not one`, token.column);
      const cmp = numberTest(op, n);
      return (f) => {
        const v = field.read(f);
        return typeof v === 'number' && cmp(v);
      };
    }
    case 'date': {
      const t = Date.parse(raw);
      if (Number.isNaN(t)) throw new FilterError(`${name} takes a date like 2025-06-30; "${raw}" is not one`, token.column);
      const cmp = numberTest(op, t);
      return (f) => {
        const v = field.read(f);
        return typeof v === 'string' && cmp(Date.parse(v));
      };
    }
    case 'enum': {
      const lower = raw.toLowerCase();
      if (op === '=' || op === '!=') {
        if (!field.values!.includes(lower)) throw new FilterError(`${name} is one of ${field.values!.join(', ')}; not "${raw}"`, token.column);
        return wrap((v) => v === lower);
      }
      return wrap((v) => typeof v === 'string' && v.includes(lower));
    }
    case 'text': {
      const lower = raw.toLowerCase();
      if (op === '=' || op === '!=') return wrap((v) => v === raw);
      return wrap((v) => typeof v === 'string' && v.toLowerCase().includes(lower));
    }
    case 'set': {
      const lower = raw.toLowerCase();
      if (op === '=' || op === '!=') return wrap((v) => Array.isArray(v) && v.includes(raw));
      return wrap((v) => Array.isArray(v) && v.some((item: string) => item.toLowerCase().includes(lower)));
    }
  }
}

function numberTest(op: string, n: number): (v: number) => boolean {
  switch (op) {
    case '<':
      return (v) => v < n;
    case '<=':
      return (v) => v <= n;
    case '>':
      return (v) => v > n;
    case '>=':
      return (v) => v >= n;
    case '!=':
      return (v) => v !== n;
    default:
      return (v) => v === n;
  }
}
