import { describe, expect, it } from 'vitest';
import { buildExamples } from '../builders';
import { compileSelection, exampleEnds } from '../selection';
import { fixtureBundles, manyBundles } from '../../testing/dataset-fixtures';
import type { DatasetExample } from '../example';
import { Deduplicator } from './dedup';
import { estimatedSimilarity, minhashSignature } from './minhash';
import { API_KEY_MARKER, Scrubber } from './scrub';
import { splitTrajectories } from './split';
import { approximateTokenCounter, summarizeLengths } from './token-length';

const all = compileSelection({ filter: '', scope: { kind: 'all' } });
const examplesOf = (per: 'step' | 'path') =>
  fixtureBundles().flatMap((b) => buildExamples(b, exampleEnds(b, all, per), { builder: 'world-model', per, reasoning: false }));

describe('duplicates', () => {
  it('drops exact copies and near-identical siblings, but keeps consecutive steps of one path', () => {
    const dedup = new Deduplicator({ nearDuplicateThreshold: 0.85 });
    const verdicts = examplesOf('step').map((s) => [s.id, dedup.judge(s)]);
    expect(verdicts).toEqual([
      ['t1-n1', 'unique'],
      ['t1-n2', 'unique'],
      // The simulated resample differs from its sibling by one "!".
      ['t1-n3', 'near-duplicate'],
      ['t1-n4', 'unique'],
      ['t2-n1', 'unique'],
      ['t2-n2', 'unique'],
      // t3 is t2 imported again.
      ['t3-n1', 'duplicate'],
      ['t3-n2', 'duplicate'],
    ]);
  });

  it('estimates similarity from MinHash signatures', () => {
    const base = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ');
    const edited = base.replace('word100', 'changed');
    const other = Array.from({ length: 200 }, (_, i) => `other${i}`).join(' ');
    expect(estimatedSimilarity(minhashSignature(base), minhashSignature(base))).toBe(1);
    expect(estimatedSimilarity(minhashSignature(base), minhashSignature(edited))).toBeGreaterThan(0.85);
    expect(estimatedSimilarity(minhashSignature(base), minhashSignature(other))).toBeLessThan(0.15);
  });
});

describe('split by trajectory', () => {
  const ids = manyBundles(40).map((b) => b.trajectory.id);

  it('puts every trajectory in exactly one split, in the asked proportion, the same for the same seed', () => {
    const a = splitTrajectories(ids, 0.8, 42);
    expect([...a.values()].filter((s) => s === 'train')).toHaveLength(32);
    expect(splitTrajectories([...ids].reverse(), 0.8, 42)).toEqual(a);
    expect(splitTrajectories(ids, 0.8, 43)).not.toEqual(a);
  });

  it('never leaks a trajectory: every example of it lands in its split', () => {
    const bundles = manyBundles(40);
    const splits = splitTrajectories(bundles.map((b) => b.trajectory.id), 0.7, 1);
    const examples = bundles.flatMap((b) => buildExamples(b, exampleEnds(b, all, 'step'), { builder: 'world-model', per: 'step', reasoning: false }));
    const seen = new Map<string, Set<string>>();
    for (const s of examples) seen.set(s.trajectoryId, (seen.get(s.trajectoryId) ?? new Set()).add(splits.get(s.trajectoryId)!));
    expect([...seen.values()].every((set) => set.size === 1)).toBe(true);
    expect(new Set(splits.values())).toEqual(new Set(['train', 'validation']));
  });

  it('keeps at least one trajectory on each side of a split, and none in validation without one', () => {
    expect([...splitTrajectories(['a', 'b'], 0.99, 0).values()].sort()).toEqual(['train', 'validation']);
    expect([...splitTrajectories(['a', 'b', 'c'], 1, 0).values()]).toEqual(['train', 'train', 'train']);
  });
});

describe('scrub', () => {
  it('replaces keys, e-mails and IPs and reports each change masked', () => {
    const s = new Scrubber();
    const text = s.text(
      'mail jane.doe@corp-mail.io or bob@example.com; host 10.1.2.3 and 127.0.0.1, again 10.1.2.3; api_key = "abcd1234efgh5678"; Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig; ghp_0123456789abcdefghijklmnopqrstuvwxyzAB; v1.2.3',
      's1',
      2,
    );
    expect(text).toBe(
      `mail person0@example.com or bob@example.com; host 192.0.2.1 and 127.0.0.1, again 192.0.2.1; api_key = "${API_KEY_MARKER}"; Authorization: Bearer ${API_KEY_MARKER}; ${API_KEY_MARKER}; v1.2.3`,
    );
    expect(s.report.counts).toEqual({ apiKey: 3, password: 0, email: 1, ip: 2 });
    expect(s.report.changes[0]).toEqual({ exampleId: 's1', message: 2, kind: 'apiKey', found: 'ghp_… (42 characters)', replacedWith: API_KEY_MARKER });
    expect(s.report.changes.find((c) => c.kind === 'email')).toMatchObject({ found: 'j***@c***.io', replacedWith: 'person0@example.com' });
    expect(s.report.changes.find((c) => c.kind === 'ip')).toMatchObject({ found: '10.1.x.x', replacedWith: '192.0.2.1' });
    expect(JSON.stringify(s.report)).not.toMatch(/jane\.doe|abcd1234|10\.1\.2\.3/);
    // Scrubbing what was scrubbed changes nothing more.
    const again = new Scrubber();
    expect(again.text(text, 's1', 2)).toBe(text);
    expect(again.report.counts).toEqual({ apiKey: 0, password: 0, email: 0, ip: 0 });
  });

  it('scrubs examples, counting changed examples, and leaves clean examples untouched', () => {
    const s = new Scrubber();
    const out = examplesOf('step').map((x) => [x, s.scrub(x)] as [DatasetExample, DatasetExample]);
    const changed = out.filter(([a, b]) => a !== b);
    expect(changed.map(([a]) => a.id)).toEqual(['t1-n4']);
    expect(changed[0]![1].messages.at(-1)!.content).toBe(`**Environment Observation:**\nadmin: person0@example.com\nhost: 192.0.2.1\napi_key = ${API_KEY_MARKER}`);
    expect(s.report.examplesChanged).toBe(1);
  });
});

describe('token lengths', () => {
  it('summarizes lengths and labels the estimate as one', () => {
    expect(summarizeLengths([4, 1, 3, 2, 10])).toMatchObject({ count: 5, min: 1, max: 10, mean: 4, p50: 3 });
    expect(approximateTokenCounter.exact).toBe(false);
    expect(approximateTokenCounter.label).toMatch(/approximate/);
    expect(approximateTokenCounter.count('abcdefgh')).toBe(2);
  });
});

describe('scrubbing URLs with credentials', () => {
  it('replaces the password of postgres://user:pw@host and never calls the host an e-mail address', () => {
    const s = new Scrubber();
    const text = 'DATABASE_URL=postgres://app:s3cretpw@db.internal.io:5432/main and redis://cache.prod.io and mysql://reader@replica.corp.io/db';
    expect(s.text(text, 's1', 1)).toBe('DATABASE_URL=postgres://app:[REDACTED_PASSWORD]@db.internal.io:5432/main and redis://cache.prod.io and mysql://reader@replica.corp.io/db');
    expect(s.report.counts).toEqual({ apiKey: 0, password: 1, email: 0, ip: 0 });
    expect(s.report.changes[0]).toEqual({ exampleId: 's1', message: 1, kind: 'password', found: '*** (8 characters)', replacedWith: '[REDACTED_PASSWORD]' });
    // A real address beside a URL is still found.
    expect(s.text('mail ops@corp-mail.io about postgres://u:pw1@h.io', 's2', 0)).toBe('mail person0@example.com about postgres://u:[REDACTED_PASSWORD]@h.io');
  });

  it('scrubs tool-call arguments and rejected answers, not only message text', () => {
    const s = new Scrubber();
    const example: DatasetExample = {
      ...examplesOf('step')[0]!,
      messages: [{ role: 'assistant', content: 'psql postgres://a:hunter22@db.io', toolCalls: [{ name: 'execute_command', arguments: { command: 'psql postgres://a:hunter22@db.io' } }] }],
      rejected: { id: 'r', messages: [{ role: 'assistant', content: 'contact jane@corp-mail.io' }] },
    };
    const out = s.scrub(example);
    expect(out.messages[0]!.toolCalls![0]!.arguments.command).toBe('psql postgres://a:[REDACTED_PASSWORD]@db.io');
    expect(out.rejected!.messages[0]!.content).toBe('contact person0@example.com');
    expect(s.report.examplesChanged).toBe(1);
  });
});
