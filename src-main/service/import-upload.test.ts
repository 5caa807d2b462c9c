// A dropped file goes to the core in chunks and is imported exactly as the CLI imports it.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiMethod, ApiOutput } from '../common/contract/api';
import { fileHead, fileSource } from '../parsing/sources';
import { WorkspaceStore } from '../store/workspace-store';
import { generatedAwb } from '../testing/awb-fixtures';
import { dispatch } from './dispatch';
import { importTrajectories } from '../formats/import-trajectories';
import { Studio } from './studio';

let studio: Studio;
let dir: string;

async function call<M extends ApiMethod>(method: M, input: unknown): Promise<ApiOutput<M>> {
  const envelope = await dispatch(studio, method, input);
  if (!envelope.ok) throw new Error(envelope.error.message);
  return envelope.value as ApiOutput<M>;
}

/** Uploads `bytes` in chunks of `size` bytes, as the UI does with a dropped file. */
async function upload(name: string, bytes: Buffer, size: number) {
  const { uploadId } = await call('import.begin', { name, format: 'auto', size: bytes.length });
  for (let offset = 0; offset < bytes.length; offset += size) {
    await call('import.chunk', { uploadId, offset, data: bytes.subarray(offset, offset + size).toString('base64') });
  }
  return call('import.finish', { uploadId });
}

const uploadsLeft = () => readdirSync(tmpdir()).filter((n) => n.startsWith('worldloom-upload-')).length;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wl-upload-'));
  process.env.WORLDLOOM_CONFIG_DIR = join(dir, 'config');
  studio = new Studio({ door: 'host', resourcesDir: join(dir, 'resources') });
  studio.openWorkspace(join(dir, 'w.worldloom'), 'create');
});
afterEach(() => studio.close());

describe('a dropped file, uploaded in chunks', () => {
  it('imports as the CLI imports the same bytes: invalid UTF-8 reported, U+FFFD kept, a BOM dropped', async () => {
    const lines = generatedAwb(3, 2);
    const bytes = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(`${lines[0]}\n`),
      Buffer.from([0x7b, 0xc0, 0xaf, 0x7d, 0x0a]),
      Buffer.from(`${lines[1]!.replace('"', '"\uFFFD')}\n${lines[2]}\n`),
    ]);
    const before = uploadsLeft();
    // Chunks of 7 bytes split lines and multi-byte characters anywhere.
    const dropped = await upload('terminal_test.jsonl', bytes, 7);
    const file = join(dir, 'terminal_test.jsonl');
    writeFileSync(file, bytes);
    const cli = WorkspaceStore.create(join(dir, 'cli.worldloom'));
    const fromCli = importTrajectories(cli, fileSource(file), { head: fileHead(file) });
    cli.close();
    expect({ ...dropped, trajectoryIds: [] }).toEqual({ ...fromCli, trajectoryIds: [] });
    expect(dropped.problems.map((p) => p.line)).toContain(2);
    expect(dropped.problems.find((p) => p.line === 2)!.reason).toBe('invalid UTF-8 bytes');
    expect(uploadsLeft()).toBe(before);
  });

  it('refuses chunks out of order, past the announced size, or for an upload that is not open', async () => {
    const { uploadId } = await call('import.begin', { name: 'a.jsonl', format: 'auto', size: 4 });
    await expect(call('import.chunk', { uploadId, offset: 2, data: 'AAAA' })).rejects.toThrow(/expected bytes from 0, not 2/);
    await expect(call('import.chunk', { uploadId, offset: 0, data: Buffer.from('12345').toString('base64') })).rejects.toThrow(/more than the 4 bytes it announced/);
    await expect(call('import.finish', { uploadId })).rejects.toThrow(/not in progress/);
    const second = await call('import.begin', { name: 'b.jsonl', format: 'auto', size: 10 });
    await call('import.chunk', { uploadId: second.uploadId, offset: 0, data: Buffer.from('{}').toString('base64') });
    await expect(call('import.finish', { uploadId: second.uploadId })).rejects.toThrow(/arrived incomplete \(2 of 10 bytes\)/);
  });
});

describe('benchmark files chosen in a browser', () => {
  const send = async (name: string, bytes: Buffer) => {
    const { uploadId } = await call('import.begin', { name, format: 'auto', size: bytes.length });
    await call('import.chunk', { uploadId, offset: 0, data: bytes.toString('base64') });
    return uploadId;
  };

  it('become a benchmark folder on this machine holding the files as sent, and no upload is left', async () => {
    const terminal = Buffer.from('{"task": "agentworld/terminal"}\n');
    const mcp = Buffer.from('{"task": "agentworld/mcp"}\n');
    const { dataDir } = await call('import.benchmarkFolder', { uploadIds: [await send('terminal_test.jsonl', terminal), await send('mcp_test.jsonl', mcp)] });
    expect(readdirSync(dataDir).sort()).toEqual(['mcp_test.jsonl', 'terminal_test.jsonl']);
    expect(readFileSync(join(dataDir, 'terminal_test.jsonl'))).toEqual(terminal);
    expect(uploadsLeft()).toBe(0);
  });

  it('refuses a file not named <domain>_test.jsonl, saying what the names are, and keeps nothing', async () => {
    const uploadId = await send('../notes.jsonl', Buffer.from('{}\n'));
    await expect(call('import.benchmarkFolder', { uploadIds: [uploadId] })).rejects.toThrow(/notes\.jsonl is not an AgentWorldBench file: the benchmark's files are named <domain>_test\.jsonl/);
    expect(uploadsLeft()).toBe(0);
  });
});
