// Records the nano world model's sessions with the app's own recorders (recorders.ts):
// terminal sessions in the bubblewrap sandbox, MCP sessions on the official filesystem and
// memory servers, web sessions on local stores served on 127.0.0.1. The actions come from
// the seed alone; each session is assigned to train or test as a whole (never step by
// step), and test sessions identical to a train one are dropped.
//
//   tsx native/world_model/record.ts [--seed N] [--terminal N] [--mcp N] [--web N] [--coined X] [--wide X] [--out FILE]
//
// --coined X: the share of terminal sessions that make up their own file names and words
// (terminal-actions.ts coinedVocabulary) instead of using the short classic lists; which
// sessions do is drawn from a stream of its own, so the classic sessions stay the same.
// --wide X: the share of the coined ones that also use python3, sed, diff, sh scripts, loops,
// configs, logs and JSON (wideVocabulary), drawn from another stream of its own.
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { McpServerName } from './mcp-actions';
import { DATA_DIR, type RecordedSession } from './paths';
import { recordMcpSession, recordTerminalSession, recordWebSession } from './recorders';
import { Rng, subSeed } from './rng';
import { inParallel, writeSessions } from './sessions';
import { coinedVocabulary, wideVocabulary } from './terminal-actions';
import { serveStores } from './web-site';

const TEST_FRACTION = 0.1;
/** Stores the web sessions visit; each number is a different shop (web-site.ts). */
export const STORES = 400;
export const DEFAULT_WEB_PORT = 47311;

export interface RecordCounts {
  terminal: number;
  mcp: number;
  web: number;
}

/** Records every session of one seed; `testFraction` 1 makes them all held out (evaluation). */
export async function recordSessions(
  seed: number,
  counts: RecordCounts,
  options: { webPort?: number; testFraction?: number; coinedShare?: number; wideShare?: number; log?: (line: string) => void } = {},
): Promise<RecordedSession[]> {
  const log = options.log ?? console.log;
  const fraction = options.testFraction ?? TEST_FRACTION;
  const split = (stream: string, i: number): 'train' | 'test' => (new Rng(subSeed(seed, `split-${stream}`, i)).next() < fraction ? 'test' : 'train');
  const sessions: RecordedSession[] = [];
  const timed = async (label: string, work: () => Promise<RecordedSession[]>) => {
    const started = Date.now();
    const made = await work();
    sessions.push(...made);
    log(`${label}: ${made.length} sessions, ${made.reduce((n, s) => n + s.steps.length, 0)} steps in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  };

  // A few shells at a time: each command is a short process and the machine is shared.
  await timed('terminal', () =>
    inParallel(counts.terminal, 3, async (i) => {
      const coined = new Rng(subSeed(seed, 'vocabulary', i)).next() < (options.coinedShare ?? 0);
      const wide = coined && new Rng(subSeed(seed, 'tools', i)).next() < (options.wideShare ?? 0);
      const names = new Rng(subSeed(seed, 'coined-names', i));
      const vocab = wide ? wideVocabulary(names) : coined ? coinedVocabulary(names) : undefined;
      return {
        id: `terminal-${seed}-${i}${wide ? '-wide' : coined ? '-coined' : ''}`,
        split: split('terminal', i),
        ...(await recordTerminalSession(new Rng(subSeed(seed, 'terminal', i)), vocab)),
      };
    }),
  );

  const scratch = mkdtempSync(join(tmpdir(), 'worldloom-nano-memory-'));
  chmodSync(scratch, 0o755); // the sandboxed server's user must reach the folders inside
  try {
    // The filesystem server has one fixed root, so its sessions run one at a time.
    for (const server of ['filesystem', 'memory'] as McpServerName[]) {
      const count = server === 'filesystem' ? Math.ceil(counts.mcp / 2) : Math.floor(counts.mcp / 2);
      await timed(`mcp ${server}`, () =>
        inParallel(count, server === 'filesystem' ? 1 : 2, async (i, worker) => {
          const dir = join(scratch, String(worker));
          return {
            id: `mcp-${server}-${seed}-${i}`,
            split: split(`mcp-${server}`, i),
            ...(await recordMcpSession(new Rng(subSeed(seed, `mcp-${server}`, i)), server, dir)),
          };
        }),
      );
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  if (counts.web > 0) {
    const site = await serveStores(options.webPort ?? DEFAULT_WEB_PORT);
    try {
      await timed('web', () =>
        inParallel(counts.web, 2, async (i) => {
          const rng = new Rng(subSeed(seed, 'web', i));
          return { id: `web-${seed}-${i}`, split: split('web', i), ...(await recordWebSession(rng, site.origin, rng.int(1, STORES))) };
        }),
      );
    } finally {
      await site.close();
    }
  }

  const trainKeys = new Set(sessions.filter((s) => s.split === 'train').map((s) => JSON.stringify(s.steps.map((t) => t.action))));
  return sessions.filter((s) => s.split === 'train' || !trainKeys.has(JSON.stringify(s.steps.map((t) => t.action))));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string', default: '1234' },
      terminal: { type: 'string', default: '6000' },
      mcp: { type: 'string', default: '800' },
      web: { type: 'string', default: '300' },
      'web-port': { type: 'string', default: String(DEFAULT_WEB_PORT) },
      coined: { type: 'string', default: '0' },
      wide: { type: 'string', default: '0' },
      out: { type: 'string', default: join(DATA_DIR, 'sessions.jsonl') },
    },
  });
  const counts = { terminal: Number(values.terminal), mcp: Number(values.mcp), web: Number(values.web) };
  for (const [name, n] of Object.entries(counts)) {
    if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a whole number of sessions, got ${values[name as keyof typeof values]}.`);
  }
  const coinedShare = Number(values.coined);
  if (!(coinedShare >= 0 && coinedShare <= 1)) throw new Error(`--coined is a share between 0 and 1, got ${values.coined}.`);
  const wideShare = Number(values.wide);
  if (!(wideShare >= 0 && wideShare <= 1)) throw new Error(`--wide is a share between 0 and 1 of the coined sessions, got ${values.wide}.`);
  if (wideShare > 0 && coinedShare === 0) throw new Error('--wide is a share of the coined sessions, and --coined is 0: add --coined 1 (every terminal session coined) to record wide ones.');
  const sessions = await recordSessions(Number(values.seed), counts, { webPort: Number(values['web-port']), coinedShare, wideShare });
  mkdirSync(dirname(values.out!), { recursive: true });
  writeSessions(values.out!, sessions);
  const test = sessions.filter((s) => s.split === 'test').length;
  console.log(`wrote ${sessions.length} sessions (${test} held out) to ${values.out}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
