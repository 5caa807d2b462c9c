import { describe, expect, it } from 'vitest';
import { chainBundle } from '../common/trajectory/build';
import { buildReport, compareTrajectory } from './comparison';
import { reportHtml } from './report-html';
import { timeline } from '../common/timeline';

let n = 0;
const id = () => `n${++n}`;

function recordedWithReplay() {
  const bundle = chainBundle(
    { title: '<img src=x onerror=alert(1)>', domain: 'terminal', systemPrompt: '', initialState: '$', steps: [
      { action: 'echo <b>', observation: '<b>\nagent@sandbox:~$', origin: 'real' },
      { action: 'pwd', observation: '/home/agent\nagent@sandbox:~$', origin: 'real' },
    ] },
    id,
    '2026-01-01T00:00:00Z',
  );
  const [root, first, second] = bundle.nodes as [typeof bundle.nodes[0], typeof bundle.nodes[0], typeof bundle.nodes[0]];
  const sim = (real: typeof first, observation: string) => ({ ...real, id: id(), origin: 'simulated' as const, observation });
  bundle.nodes.push(sim(first, '<b>\nagent@sandbox:~$'), sim(second, '<script>alert(1)</script>\nagent@sandbox:/tmp$'));
  return { bundle, root };
}

describe('comparison, timeline and report', () => {
  it('pairs real and simulated siblings along the recorded chain and finds the first divergence', () => {
    const { bundle } = recordedWithReplay();
    const c = compareTrajectory(bundle.trajectory, bundle.nodes);
    expect(c.steps.map((s) => s.diverged)).toEqual([false, true]);
    expect(c.firstDivergence).toBe(2);
    expect(c.steps[1]!.metrics).toMatchObject({ exactMatch: 0, cwdConsistency: 0 });
    const t = timeline(c.steps, 100, 50);
    expect(t.points.map((p) => p.diverged)).toEqual([false, true]);
    expect(t.line).toMatch(/^M12\.0,12\.0 L88\.0,/);
  });

  it('escapes everything that came from the workspace', () => {
    const { bundle } = recordedWithReplay();
    const html = reportHtml(buildReport([compareTrajectory(bundle.trajectory, bundle.nodes)]));
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).toContain('terminal (2 steps)');
  });
});
