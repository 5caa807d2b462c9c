// The sessions agents keep on disk (part of `npm run bench -- import`): at least 1,000
// generated sessions of Claude Code, Codex, Gemini CLI, Qwen Code, Roo Code, goose, opencode, Kimi CLI,
// Copilot CLI and aider, 200 MB together
// (WL_BENCH_SESSIONS and WL_BENCH_SESSIONS_MB to change them), in a temporary home folder.
// Listing them (finding the files and counting each one's tool calls) and importing them all
// into a workspace, each against a raw read + JSON.parse of the same files; the import's peak
// growth of resident memory against the same limit as the 1 GB AgentWorldBench import.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileHead, fileSource } from '../src-main/parsing/sources';
import { importAsJob } from '../src-main/formats/import-trajectories';
import { findSessions } from '../src-main/sessions/find-sessions';
import { planImport } from '../src-main/sessions/continued-sessions';
import { WorkspaceStore } from '../src-main/store/workspace-store';
import { median, type Figure } from './bench';
import { writeGeneratedSessions } from './generated-sessions';

/** Growth of resident memory allowed for the import of every session, as for one 1 GB file. */
const MEMORY_LIMIT = 512 * 1024 * 1024;
const ROUNDS = 3;

/**
 * Reads every file and parses its JSON (each line of a .jsonl, the whole of a .json): the peer. A
 * session over many files (opencode's) is all of them. aider's markdown history has no JSON to
 * parse: it is split into its lines, the least a reader of it does.
 */
function readAndParse(files: readonly string[]): number {
  let values = 0;
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    if (file.endsWith('.md')) values += text.split('\n').length;
    else if (file.endsWith('.jsonl')) {
      for (const line of text.split('\n')) if (line) values += JSON.parse(line) ? 1 : 0;
    } else values += JSON.parse(text) ? 1 : 0;
  }
  return values;
}

export async function sessionFigures(): Promise<Figure[]> {
  const count = Number(process.env.WL_BENCH_SESSIONS ?? 1000);
  const megabytes = Number(process.env.WL_BENCH_SESSIONS_MB ?? 200);
  const dir = mkdtempSync(join(tmpdir(), 'wl-bench-sessions-'));
  const home = join(dir, 'home');
  try {
    const generated = writeGeneratedSessions(home, count, megabytes * 1024 * 1024);
    const mb = Math.round(generated.bytes / 1024 / 1024);
    const rounds: { parseMs: number; listMs: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      let start = performance.now();
      readAndParse(generated.allFiles);
      const parseMs = performance.now() - start;
      start = performance.now();
      const found = await findSessions({ home, platform: 'linux', env: {} });
      const listMs = performance.now() - start;
      const calls = found.sessions.reduce((n, s) => n + s.toolCalls, 0);
      if (found.sessions.length !== generated.files.length || calls !== generated.toolCalls) {
        throw new Error(`listed ${found.sessions.length} sessions with ${calls} tool calls; ${generated.files.length} with ${generated.toolCalls} were written`);
      }
      rounds.push({ parseMs, listMs });
    }
    const listRatio = median(rounds.map((r) => r.listMs / r.parseMs));
    const listed = rounds.find((r) => r.listMs / r.parseMs === listRatio)!;

    // The import, once (it is the long part): every file as `worldloom sessions --import` does it, into one workspace.
    let start = performance.now();
    readAndParse(generated.allFiles);
    const parseMs = performance.now() - start;
    const store = WorkspaceStore.create(join(dir, 'sessions.worldloom'));
    global.gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
    let imported = 0;
    start = performance.now();
    // As the import.files handler does for many files: one deferral of checkpoints around them all.
    store.deferCheckpoints(true);
    try {
      // And it first tells each file's format and asks the format which sessions another one carries on (Claude Code's resumed sessions).
      const plan = await planImport(generated.files);
      for (const file of generated.files) {
        const conversationIn = plan.elsewhere.get(file);
        const report = await importAsJob(store, fileSource(file), { format: plan.formats.get(file), head: fileHead(file), signal: new AbortController().signal, added: [], ...(conversationIn ? { conversationIn } : {}) });
        imported += report.imported;
        peak = Math.max(peak, process.memoryUsage().rss);
      }
      store.deferCheckpoints(false);
    } finally {
      clearInterval(sample);
      store.close();
    }
    const importMs = performance.now() - start;
    if (imported !== generated.files.length) throw new Error(`imported ${imported} of ${generated.files.length} sessions`);
    const growth = peak - base;
    return [
      { name: `read + JSON.parse ${generated.files.length} agent sessions (${mb} MB)`, value: listed.parseMs, unit: 'ms' },
      {
        name: `list ${generated.files.length} sessions (find, count tool calls)`,
        value: listed.listMs,
        unit: 'ms',
        ratio: listRatio,
        goal: 1,
        note: `ratio to read + JSON.parse of the same files, median of ${ROUNDS} rounds (${rounds.map((r) => (r.listMs / r.parseMs).toFixed(2)).join(', ')}×); ${generated.toolCalls} tool calls counted, all of them`,
      },
      {
        name: `import ${generated.files.length} sessions (${mb} MB) into one workspace`,
        value: importMs,
        unit: 'ms',
        ratio: importMs / parseMs,
        note: 'ratio to a read + JSON.parse of the same files measured just before it; one file after another as worldloom sessions --import does',
      },
      {
        name: `import ${generated.files.length} sessions: peak memory growth`,
        value: growth / 1024 / 1024,
        unit: 'MB',
        ratio: growth / MEMORY_LIMIT,
        goal: 1,
        note: `of a ${MEMORY_LIMIT / 1024 / 1024} MB limit, the same as for the 1 GB AgentWorldBench import`,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
