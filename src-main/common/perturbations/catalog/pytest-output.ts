// A pytest run's output, for the SWE kinds that make one test fail (flaky test, test
// timeout). They turn a passing test into a failing one and keep the rest of the report
// true to pytest: the per-test line, a FAILURES section, the short summary and the final
// counts line, centred in pytest's 80-column banners.

/** A pytest banner: `===== title =====` centred in 80 columns, as pytest's terminal writer draws it. */
export function banner(title: string, char = '='): string {
  const fill = char.repeat(Math.max(1, Math.floor((80 - title.length - 2) / 2)));
  const line = `${fill} ${title} ${fill}`;
  return line.length + 1 <= 80 ? line + char : line;
}

const VERBOSE_RESULT = /^(\S+::\S+) PASSED\b/;
const FINAL_LINE = /^=+ (.*?) in ([\d.]+)s(?: \([\d:]+\))? =+$/;

/** Ids of the tests a verbose run reports as passed. */
export function passedTests(output: string): string[] {
  return output.split('\n').flatMap((l) => {
    const m = VERBOSE_RESULT.exec(l);
    return m ? [m[1]!] : [];
  });
}

function durationText(seconds: number): string {
  const s = `${seconds.toFixed(2)}s`;
  if (seconds < 60) return s;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const sec = Math.floor(seconds % 60);
  return `${s} (${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')})`;
}

/** `5 passed, 1 warning` with one more failure and one fewer pass, in pytest's order. */
function recount(counts: string): string {
  const parts = new Map<string, number>();
  for (const m of counts.matchAll(/(\d+) (\w+)/g)) parts.set(m[2]!, Number(m[1]));
  parts.set('passed', Math.max(0, (parts.get('passed') ?? 1) - 1));
  parts.set('failed', (parts.get('failed') ?? 0) + 1);
  const order = ['failed', 'passed', 'skipped', 'deselected', 'xfailed', 'xpassed', 'warnings', 'warning', 'error', 'errors'];
  return [...parts.entries()]
    .filter(([k, n]) => n > 0 || k === 'failed')
    .sort(([a], [b]) => order.indexOf(a) - order.indexOf(b))
    .map(([k, n]) => `${n} ${k}`)
    .join(', ');
}

/**
 * The output with `testId` failed: its verbose line says FAILED, a FAILURES section gives
 * the error in `--tb=line` form (`path:line: Error`), the short summary lists it and the
 * final line is recounted. `extraSeconds` is added to the run's duration.
 */
export function failTest(output: string, testId: string, error: string, line: number, extraSeconds = 0): string {
  const lines = output.split('\n');
  const at = lines.findIndex((l) => l.startsWith(`${testId} PASSED`));
  if (at >= 0) lines[at] = lines[at]!.replace(' PASSED', ' FAILED');
  const file = testId.split('::')[0]!;
  // A run that already failed has a FAILURES section; the new failure joins it.
  const hasFailures = lines.some((l) => /^=+ FAILURES =+$/.test(l));
  const failure = [...(hasFailures ? [] : [banner('FAILURES')]), `${file}:${line}: ${error}`];
  const summary = [banner('short test summary info'), `FAILED ${testId} - ${error}`];
  const finalAt = lines.findIndex((l) => FINAL_LINE.test(l));
  if (finalAt < 0) return [...lines, ...failure, ...summary, banner(`1 failed in ${durationText(extraSeconds)}`)].join('\n');
  const m = FINAL_LINE.exec(lines[finalAt]!)!;
  const final = banner(`${recount(m[1]!)} in ${durationText(Number(m[2]) + extraSeconds)}`);
  // An existing short summary gains the new line; otherwise both sections are inserted.
  const summaryAt = lines.findIndex((l) => /^=+ short test summary info =+$/.test(l));
  if (summaryAt >= 0) {
    lines.splice(finalAt, 1, final);
    lines.splice(summaryAt + 1, 0, `FAILED ${testId} - ${error}`);
    lines.splice(summaryAt, 0, ...failure);
    return lines.join('\n');
  }
  lines.splice(finalAt, 1, ...failure, ...summary, final);
  return lines.join('\n');
}

/** A minimal pytest report with one failing test, for observations that are not pytest output. */
export function singleFailureReport(testId: string, error: string, line: number, seconds: number): string {
  return [
    banner('test session starts'),
    'collected 1 item',
    '',
    // pytest right-aligns the progress column to one less than its 80-column width.
    `${testId} FAILED${' '.repeat(Math.max(1, 79 - 6 - (testId.length + 7)))}[100%]`,
    '',
    banner('FAILURES'),
    `${testId.split('::')[0]}:${line}: ${error}`,
    banner('short test summary info'),
    `FAILED ${testId} - ${error}`,
    banner(`1 failed in ${durationText(seconds)}`),
  ].join('\n');
}
