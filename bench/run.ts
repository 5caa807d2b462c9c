// `npm run bench`: runs every suite (or those named on the command line), prints a table
// and writes bench/results/<suite>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { meetsGoal, type BenchSuite, type Figure } from './bench';
import { engineSuite } from './engine.bench';
import { importSuite } from './import.bench';
import { importMemorySuite } from './import-memory.bench';
import { asciinemaSuite } from './asciinema.bench';
import { nanoSuite } from './nano.bench';
import { qwen35Suite } from './qwen35.bench';
import { treeSuite } from './tree.bench';
import { exportSuite } from './export.bench';
import { depthSuite } from './depth.bench';
import { ggufSuite } from './gguf.bench';
import { fanoutSuite } from './fanout.bench';
import { cliSuite } from './cli.bench';
import { probeSuite } from './probe.bench';
import { quantSuite } from './quant.bench';

const SUITES: BenchSuite[] = [importSuite, importMemorySuite, asciinemaSuite, treeSuite, engineSuite, qwen35Suite, ggufSuite, nanoSuite, exportSuite, depthSuite, fanoutSuite, probeSuite, cliSuite, quantSuite];

const resultsDir = fileURLToPath(new URL('./results/', import.meta.url));
// Suite names; `--preset NAME` (fanout, gguf, probe, quant) and its value are options, not suites.
const wanted = process.argv.slice(2).filter((arg, i, all) => !arg.startsWith('--') && all[i - 1] !== '--preset');

function row(f: Figure): string {
  const value = `${f.value.toFixed(f.value < 10 ? 2 : 0)} ${f.unit}`;
  const ratio = f.ratio === undefined ? '' : `${f.ratio.toFixed(2)}×`;
  const goal = f.goal === undefined ? '' : `${f.higherIsBetter ? '≥' : '≤'} ${f.goal}×`;
  const verdict = meetsGoal(f) === null ? '' : meetsGoal(f) ? 'met' : 'MISSED';
  return [f.name.padEnd(58), value.padStart(14), ratio.padStart(9), goal.padStart(8), verdict.padStart(7)].join(' ');
}

mkdirSync(resultsDir, { recursive: true });
let missed = 0;
for (const suite of SUITES.filter((s) => wanted.length === 0 || wanted.includes(s.name))) {
  process.stdout.write(`\n[${suite.name}]\n`);
  let figures: Figure[];
  try {
    figures = await suite.run();
  } catch (error) {
    // One suite that cannot run (a missing tool, say) must not hide the others' figures.
    process.stdout.write(`could not run: ${(error as Error).message}\n`);
    missed++;
    continue;
  }
  for (const f of figures) {
    process.stdout.write(row(f) + '\n');
    if (meetsGoal(f) === false) missed++;
  }
  writeFileSync(
    join(resultsDir, `${suite.name}.json`),
    JSON.stringify({ suite: suite.name, measuredAt: new Date().toISOString(), node: process.version, figures }, null, 2) + '\n',
  );
}
process.stdout.write(`\n${missed === 0 ? 'All goals met.' : `${missed} goal(s) missed.`} Results in bench/results/.\n`);
