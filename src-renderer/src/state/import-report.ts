// What the UI tells the user after an import: how many trajectories came in, every problem
// (a line or a trajectory lost) and every part left out on purpose (a harness turn, an
// agent's own prompt) with why, so an import never drops anything without a word.
import type { ImportReport } from '../../../src-main/common/contract/api';
import type { Notice } from './slices/workspace';

/** Lines of each kind shown in the notice; the CLI prints them all. */
const SHOWN = 20;

function listed<T>(items: readonly T[], line: (item: T) => string, rest: (n: number) => string): string[] {
  const shown = items.slice(0, SHOWN).map(line);
  return items.length > SHOWN ? [...shown, rest(items.length - SHOWN)] : shown;
}

/** How the scrubber's kinds read in a notice. */
const SCRUBBED: Record<string, string> = { apiKey: 'API keys', password: 'passwords', email: 'e-mail addresses', ip: 'IP addresses' };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function importReportNotice(r: ImportReport): Pick<Notice, 'kind' | 'title' | 'lines'> {
  const counts = [
    `${r.imported} imported`,
    ...(r.alreadyPresent ? [`${r.alreadyPresent} already in the workspace`] : []),
    ...(r.continued?.length ? [`${plural(r.continued.length, 'trajectory', 'trajectories')} continued`] : []),
    ...(r.problems.length ? [plural(r.problems.length, 'problem', 'problems')] : []),
    ...(r.skipped.length ? [plural(r.skipped.length, 'part left out on purpose', 'parts left out on purpose')] : []),
    ...(r.scrubbed ? [`scrubbed: ${Object.entries(r.scrubbed).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${SCRUBBED[k] ?? k}`).join(', ') || 'nothing to replace'}`] : []),
  ];
  const at = (line: number | null) => (line === null ? '' : `line ${line}: `);
  return {
    kind: r.imported === 0 && r.alreadyPresent === 0 && !r.continued?.length && r.problems.length > 0 ? 'error' : 'info',
    title: `${r.file}: ${counts.join(', ')} (${r.format})`,
    lines: [
      // Where a session went (a resumed session continuing the trajectory of the one it resumed) comes first: it says where its steps are.
      ...(r.notes ?? []),
      ...listed(r.problems, (p) => `Problem, ${at(p.line)}${p.reason}`, (n) => `…and ${plural(n, 'more problem', 'more problems')} (worldloom import lists them all)`),
      ...listed(r.skipped, (s) => `Left out, ${at(s.line)}${s.what}: ${s.reason}`, (n) => `…and ${n} more left out (worldloom import lists them all)`),
    ],
  };
}
