import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgreementRow, ActionSamples } from '../../../src-main/common/contract/siblings';

const calls: { method: string; input: Record<string, unknown> }[] = [];
const answers = new Map<string, (input: Record<string, unknown>) => unknown>();
vi.mock('../api/door', () => ({ lastMessageArrivedAt: () => 0, door: {} }));
vi.mock('../api/client', () => ({
  call: vi.fn(async (method: string, input: Record<string, unknown>) => {
    calls.push({ method, input });
    const answer = answers.get(method);
    if (!answer) throw new Error(`not in this test: ${method}`);
    return answer(input);
  }),
  onEvent: vi.fn(() => () => {}),
}));

const { closeSiblings, openSiblings, preferSample, refreshAgreement, useSiblings } = await import('./siblings');
const { useUiStore } = await import('./workspace-actions');

const row = (parentId: string, agreement: number): AgreementRow => ({ parentId, label: 'ls', depth: 1, samples: 2, agreement, distinct: 2, consensusNodeId: `${parentId}-a`, preferredNodeId: null });
const actionSamples = (preferred: boolean): ActionSamples => ({
  parentId: 'p',
  action: 'ls',
  domain: 'terminal',
  realNodeId: null,
  realOrigin: null,
  real: null,
  samples: [{ nodeId: 'a', sample: 1, of: 1, seed: 1, perturbation: null, origin: 'simulated', observation: 'x', preferred, centrality: 1, toReal: null }],
  pairwise: [[1]],
  agreement: null,
  consensusNodeId: 'a',
  distinct: 1,
});

beforeEach(() => {
  calls.length = 0;
  answers.clear();
  closeSiblings();
  useUiStore.setState({ notices: [] });
});

describe('sibling agreement in the UI', () => {
  it('indexes the rows by state and the labels by node, and a late answer never replaces a newer one', async () => {
    let answerFirst!: (v: unknown) => void;
    answers.set('siblings.agreement', ({ trajectoryId }) =>
      trajectoryId === 'old'
        ? new Promise((resolve) => (answerFirst = resolve))
        : { rows: [row('p', 0.4)], labels: [{ nodeId: 'a', sample: 1, of: 2, seed: 5, perturbation: null }] },
    );
    const first = refreshAgreement('old');
    await refreshAgreement('new');
    answerFirst({ rows: [row('q', 1)], labels: [] });
    await first;
    const state = useSiblings.getState();
    expect(state.trajectoryId).toBe('new');
    expect(state.byParent.get('p')?.agreement).toBe(0.4);
    expect(state.byParent.has('q')).toBe(false);
    expect(state.labels.get('a')).toMatchObject({ sample: 1, seed: 5 });
  });

  it('opens a comparison, says when there is nothing to compare, and shows a pick at once', async () => {
    answers.set('siblings.sideBySide', () => ({ actions: [] }));
    await openSiblings('p');
    expect(useSiblings.getState().parentId).toBeNull();
    expect(useUiStore.getState().notices.at(-1)?.title).toBe('No samples to show side by side');

    let preferred = false;
    answers.set('siblings.sideBySide', () => ({ actions: [actionSamples(preferred)] }));
    answers.set('siblings.prefer', () => {
      preferred = true;
      return { nodes: [] };
    });
    await openSiblings('p');
    expect(useSiblings.getState().actions[0]!.samples[0]!.preferred).toBe(false);
    await preferSample('a');
    expect(calls.filter((c) => c.method === 'siblings.prefer')).toEqual([{ method: 'siblings.prefer', input: { nodeId: 'a' } }]);
    expect(useSiblings.getState().actions[0]!.samples[0]!.preferred).toBe(true);
  });
});
