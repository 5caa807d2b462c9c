// The sim-vs-real report as one self-contained HTML page: aggregates per domain, and per
// trajectory a divergence timeline and every step's real and simulated observation.
// Everything from a workspace (titles, actions, model output) is escaped: it is text.
import type { ModelComparison, SimVsRealReport, TrajectoryComparison } from '../common/contract/reality';
import { STEP_CHART, stepChart, stepPointTitle } from '../common/step-chart';
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

/** The per-step chart (common/step-chart.ts) as static SVG, with labelled axes and a legend for an A/B. */
function stepChartSvg(lines: { label: string; report: SimVsRealReport }[]): string {
  const chart = stepChart(lines);
  if (!chart) return '';
  const { width, height, left, right, top, bottom } = STEP_CHART;
  const ticks = chart.yTicks.map((t) => `<line x1="${left}" x2="${width - right}" y1="${t.y}" y2="${t.y}" class="grid"/><text x="${left - 6}" y="${t.y + 4}" text-anchor="end">${t.value}</text>`).join('');
  const xTicks = chart.xTicks.map((t) => `<text x="${t.x.toFixed(1)}" y="${height - bottom + 16}" text-anchor="middle">${t.depth}</text>`).join('');
  const paths = chart.lines
    .map((line) => `<path d="${line.path}" fill="none" stroke="${line.colour}" stroke-width="2"/>${line.points.map((p) => `<circle cx="${p.x.toFixed(1)}" cy="${p.y.toFixed(1)}" r="3" fill="${line.colour}"><title>${escape(stepPointTitle(line.label, p))}</title></circle>`).join('')}`)
    .join('');
  const legend = chart.lines.length > 1 ? chart.lines.map((line, i) => `<text x="${left + 8}" y="${top + 14 + i * 14}" fill="${line.colour}">${escape(line.label)}</text>`).join('') : '';
  return `<svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Mean similarity to the real observation by step" class="chart">
${ticks}${xTicks}<text x="${(left + width - right) / 2}" y="${height - 4}" text-anchor="middle">step of the trajectory</text>
<text transform="translate(12 ${(top + height - bottom) / 2}) rotate(-90)" text-anchor="middle">mean similarity to real (0–1)</text>${paths}${legend}</svg>`;
}

function stepTable(report: SimVsRealReport): string {
  if (!report.byStep.length) return '';
  return metricsTable(report.byStep.map((s) => [`step ${s.depth} (${s.steps} steps, ${s.diverged} diverged)`, s.metrics]));
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
svg .frame{fill:#fafafa;stroke:#ccc}svg.chart text{font-size:11px;fill:#444}svg .grid{stroke:#e4e4e4}svg .line{fill:none;stroke:#36c;stroke-width:2}svg .diverged{fill:#d33}svg .same{fill:#2a2}
</style></head><body>
<h1>Sim vs real</h1><p>Created ${escape(report.createdAt)} by Worldloom. Scores are 0–1 (1 = same as real); line counts are counts.</p>
<h2>By domain</h2>${domainTable(report)}
<h2>By step</h2>${stepChartSvg([{ label: 'all', report }])}${stepTable(report)}
${report.trajectories.map(trajectorySection).join('\n')}
</body></html>
`;
}

function domainTable(report: SimVsRealReport): string {
  return metricsTable([...Object.entries(report.byDomain).map(([d, v]) => [`${d} (${v.steps} steps)`, v.metrics] as [string, Record<string, number>]), ['all', report.overall]]);
}

/** An A/B: each model's scores side by side, the per-step chart with a line per model, and the steps where they differ most. */
export function modelComparisonHtml(comparison: ModelComparison): string {
  const [a, b] = comparison.models;
  const models = comparison.models
    .map((m) => `<section><h3>${escape(m.label)}</h3><p>${m.report.trajectories.length} trajectories · ${m.report.trajectories.reduce((n, t) => n + t.steps.filter((s) => s.metrics).length, 0)} steps compared · ${m.streamTokensPerSecond.toFixed(1)} tokens/s per stream</p>${domainTable(m.report)}</section>`)
    .join('');
  const differences = comparison.differences
    .map(
      (d) => `<section class="step"><h3>${escape(d.title)} · step ${d.depth} · ${escape(d.domain)} · ${escape(comparison.score)} ${num(d.predictions[0]?.score)} vs ${num(d.predictions[1]?.score)}</h3>
<pre class="action">${escape(d.action)}</pre>
<div class="sides three"><div><h4>${escape(a?.label ?? 'A')}</h4><pre>${escape(d.predictions[0]?.observation ?? '')}</pre></div>
<div><h4>${escape(b?.label ?? 'B')}</h4><pre>${escape(d.predictions[1]?.observation ?? '')}</pre></div>
<div><h4>Real</h4><pre>${escape(d.real)}</pre></div></div></section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Worldloom model A/B on recorded sessions</title>
<style>
body{font:14px system-ui,sans-serif;margin:2rem;color:#222}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem;margin:.25rem 0}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}
.sides{display:grid;grid-template-columns:1fr 1fr 1fr;gap:1rem}svg text{font-size:11px;fill:#444}svg .grid{stroke:#e4e4e4}
</style></head><body>
<h1>Which world model is closer to reality</h1><p>Created ${escape(comparison.createdAt)} by Worldloom: the same recorded steps, with the same seeds, through each model. Scores are 0–1 (1 = same as real).</p>
<h2>Per domain</h2><div class="models">${models}</div>
<h2>By step</h2>${stepChartSvg(comparison.models.map((m) => ({ label: m.label, report: m.report })))}
<h2>Where they differ most</h2>${differences || '<p>No step where their scores differ.</p>'}
</body></html>
`;
}
