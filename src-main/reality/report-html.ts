// The sim-vs-real report as one self-contained HTML page: aggregates per domain, and per
// trajectory a divergence timeline and every step's real and simulated observation.
// Everything from a workspace (titles, actions, model output) is escaped: it is text.
import type { SimVsRealReport, TrajectoryComparison } from '../common/contract/reality';
import { timeline } from '../common/timeline';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const num = (v: number | undefined) => (v === undefined ? '–' : Number.isInteger(v) ? String(v) : v.toFixed(3));

function metricsTable(rows: [string, Record<string, number>][]): string {
  const names = [...new Set(rows.flatMap(([, m]) => Object.keys(m)))];
  if (!names.length) return '<p>No compared steps.</p>';
  return `<table><tr><th></th>${names.map((n) => `<th>${escape(n)}</th>`).join('')}</tr>${rows
    .map(([label, m]) => `<tr><th>${escape(label)}</th>${names.map((n) => `<td>${num(m[n])}</td>`).join('')}</tr>`)
    .join('')}</table>`;
}

function timelineSvg(c: TrajectoryComparison): string {
  const t = timeline(c.steps, 640, 120);
  const dots = t.points
    .filter((p) => !Number.isNaN(p.y))
    .map((p) => `<circle cx="${p.x.toFixed(1)}" cy="${p.y.toFixed(1)}" r="4" class="${p.diverged ? 'diverged' : 'same'}"><title>step ${p.depth}: similarity ${num(p.similarity ?? undefined)}</title></circle>`)
    .join('');
  return `<svg viewBox="0 0 ${t.width} ${t.height}" width="${t.width}" height="${t.height}" role="img" aria-label="Divergence timeline"><rect x="0" y="0" width="${t.width}" height="${t.height}" class="frame"/><path d="${t.line}" class="line"/>${dots}</svg>`;
}

function trajectorySection(c: TrajectoryComparison): string {
  const steps = c.steps
    .map(
      (s) => `<section class="step${s.diverged ? ' diverged' : ''}"><h3>Step ${s.depth}${s.diverged ? ' · diverged' : s.diverged === false ? ' · same' : ''}</h3>
<pre class="action">${escape(s.action)}</pre>
<div class="sides"><div><h4>Simulated</h4><pre>${s.simulated === null ? '<em>not simulated</em>' : escape(s.simulated)}</pre></div>
<div><h4>Real</h4><pre>${s.real === null ? '<em>not run for real</em>' : escape(s.real)}</pre></div></div>
${s.metrics ? metricsTable([['metrics', s.metrics]]) : ''}</section>`,
    )
    .join('\n');
  return `<article><h2>${escape(c.title)} <small>${escape(c.domain)} · ${c.steps.length} steps · first divergence: ${c.firstDivergence ?? 'none'}</small></h2>
${timelineSvg(c)}
${metricsTable([['mean', c.aggregate]])}
${steps}</article>`;
}

export function reportHtml(report: SimVsRealReport): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Worldloom sim-vs-real report</title>
<style>
body{font:14px system-ui,sans-serif;margin:2rem;color:#222}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem;margin:.25rem 0}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}
.sides{display:grid;grid-template-columns:1fr 1fr;gap:1rem}.step.diverged h3{color:#b00}
svg .frame{fill:#fafafa;stroke:#ccc}svg .line{fill:none;stroke:#36c;stroke-width:2}svg .diverged{fill:#d33}svg .same{fill:#2a2}
</style></head><body>
<h1>Sim vs real</h1><p>Created ${escape(report.createdAt)} by Worldloom. Scores are 0–1 (1 = same as real); line counts are counts.</p>
<h2>By domain</h2>${metricsTable([...Object.entries(report.byDomain).map(([d, v]) => [`${d} (${v.steps} steps)`, v.metrics] as [string, Record<string, number>]), ['all', report.overall]])}
${report.trajectories.map(trajectorySection).join('\n')}
</body></html>
`;
}
