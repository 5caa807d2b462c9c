// transformers (PyTorch, CPU) decoding the same prompt ids as an engine under test: the peer every
// Qwen3.5 engine figure is a ratio against. Runs bench/qwen35_peer.py in the project's venv.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const BENCH_PYTHON = join(ROOT, 'native', '.venv', 'bin', 'python');

export interface PeerRound {
  tokens: number[];
  prefillMs: number;
  decodeTokensPerSecond: number;
}

export function transformersPeerRuns(hf: string, prompt: number[], options: { tokens: number; threads: number; rounds: number }): PeerRound[] {
  const scratch = mkdtempSync(join(tmpdir(), 'worldloom-bench-'));
  try {
    const promptFile = join(scratch, 'prompt.json');
    writeFileSync(promptFile, JSON.stringify(prompt));
    const args = ['--hf', hf, '--prompt-ids', promptFile, '--tokens', String(options.tokens), '--threads', String(options.threads), '--rounds', String(options.rounds)];
    const result = spawnSync(BENCH_PYTHON, [join(ROOT, 'bench', 'qwen35_peer.py'), ...args], {
      encoding: 'utf8',
      env: { ...process.env, OMP_NUM_THREADS: String(options.threads) },
      maxBuffer: 64 * 1024 * 1024,
    });
    if (result.status !== 0) throw new Error(`the transformers peer failed: ${result.stderr.slice(-800)}`);
    return (JSON.parse(result.stdout.trim().split('\n').pop()!) as { rounds: PeerRound[] }).rounds;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
