// Structural agreement of two JSON documents, for MCP results: do they have the same keys
// with the same kinds of values, whatever the values are? A world model that returns the
// right shape with wrong numbers is closer than one that invents fields. Pure.

export interface StructureMatch {
  /** 0..1: 1 = same keys and value types everywhere. */
  score: number;
  /** Why the score is 0 without comparing (a side is not JSON). */
  reason?: string;
}

type Kind = 'null' | 'boolean' | 'number' | 'string' | 'array' | 'object';

function kindOf(v: unknown): Kind {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v as Kind;
}

/** A string that holds a JSON object or array (MCP servers often put JSON in text content). */
function embeddedJson(s: string): unknown {
  const t = s.trim();
  if (!(t.startsWith('{') && t.endsWith('}')) && !(t.startsWith('[') && t.endsWith(']'))) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

/**
 * Recursive shape score. Objects: mean over the union of keys (a key on one side only
 * scores 0). Arrays: mean over positions up to the longer length (a missing element
 * scores 0), so length differences count. Scalars: 1 when the types agree. Strings that
 * both hold JSON documents are compared as those documents.
 */
export function structureScore(sim: unknown, real: unknown): number {
  if (typeof sim === 'string' && typeof real === 'string') {
    const [s, r] = [embeddedJson(sim), embeddedJson(real)];
    if (s !== undefined && r !== undefined) return structureScore(s, r);
  }
  const kind = kindOf(real);
  if (kindOf(sim) !== kind) return 0;
  if (kind === 'array') {
    const [s, r] = [sim as unknown[], real as unknown[]];
    const n = Math.max(s.length, r.length);
    if (n === 0) return 1;
    let sum = 0;
    for (let i = 0; i < Math.min(s.length, r.length); i++) sum += structureScore(s[i], r[i]);
    return sum / n;
  }
  if (kind === 'object') {
    const [s, r] = [sim as Record<string, unknown>, real as Record<string, unknown>];
    const keys = new Set([...Object.keys(s), ...Object.keys(r)]);
    if (keys.size === 0) return 1;
    let sum = 0;
    for (const k of keys) if (Object.hasOwn(s, k) && Object.hasOwn(r, k)) sum += structureScore(s[k], r[k]);
    return sum / keys.size;
  }
  return 1;
}

export function jsonStructureMatch(simulated: string, real: string): StructureMatch {
  const parse = (text: string): { value: unknown } | { error: string } => {
    try {
      return { value: JSON.parse(text) };
    } catch (err) {
      return { error: (err as Error).message };
    }
  };
  const r = parse(real);
  if ('error' in r) return { score: 0, reason: `the real observation is not JSON (${r.error})` };
  const s = parse(simulated);
  if ('error' in s) return { score: 0, reason: `the simulated observation is not JSON (${s.error})` };
  return { score: structureScore(s.value, r.value) };
}
