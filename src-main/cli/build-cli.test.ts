import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { CLI_BIN } from '../testing/cli-bin';
import { VERBS, verbsFor } from './verbs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUT = join(ROOT, 'out', 'cli');
const NATIVE = ['better-sqlite3', 'node-pty', 'onnxruntime-node', 'node-llama-cpp'];

interface Metafile {
  inputs: Record<string, unknown>;
  outputs: Record<string, { entryPoint?: string; inputs: Record<string, unknown>; imports: { path: string; kind: string; external?: boolean }[] }>;
}
const meta = (): Metafile => JSON.parse(readFileSync(join(OUT, 'meta.json'), 'utf8')) as Metafile;

/** Every output file and package an output loads before its code runs: itself and its static imports, followed. */
function loadedAtStart(m: Metafile, output: string): Set<string> {
  const seen = new Set<string>([output]);
  const queue = [output];
  while (queue.length > 0) {
    for (const i of m.outputs[queue.pop()!]?.imports ?? []) {
      if (i.kind !== 'import-statement' || seen.has(i.path)) continue;
      seen.add(i.path);
      if (!i.external) queue.push(i.path);
    }
  }
  return seen;
}

function outputOf(m: Metafile, entryPoint: string): string {
  const found = Object.entries(m.outputs).find(([, o]) => o.entryPoint === entryPoint);
  if (!found) throw new Error(`no output for ${entryPoint}`);
  return found[0];
}

describe('the verb table', () => {
  it('registers each verb under the name it is typed as, one command per entry', async () => {
    for (const [name, load] of Object.entries(VERBS)) {
      const program = new Command();
      (await load())(program);
      expect(program.commands.map((c) => c.name()), `verbs.ts entry "${name}"`).toEqual([name]);
    }
  });

  it('lists every command file under commands/', () => {
    const table = readFileSync(fileURLToPath(new URL('./verbs.ts', import.meta.url)), 'utf8');
    const files = readdirSync(fileURLToPath(new URL('./commands/', import.meta.url))).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    for (const file of files) expect(table, `commands/${file} is not in verbs.ts`).toContain(`'./commands/${file.replace(/\.ts$/, '')}'`);
  });

  it('loads the verb typed, none for --version, all of them for help or an unknown word', () => {
    expect(verbsFor(['ls', '--workspace', 'w.worldloom'])).toEqual(['ls']);
    expect(verbsFor(['--version'])).toEqual([]);
    expect(verbsFor(['-V'])).toEqual([]);
    expect(verbsFor(['--help'])).toEqual(Object.keys(VERBS));
    expect(verbsFor(['lss'])).toEqual(Object.keys(VERBS));
    expect(verbsFor([])).toEqual(Object.keys(VERBS));
    // A name that is on every object is not a verb.
    expect(verbsFor(['constructor'])).toEqual(Object.keys(VERBS));
  });
});

describe('the built CLI (out/cli)', () => {
  it('is an executable script that prints the version from package.json', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(readFileSync(CLI_BIN, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(execFileSync(CLI_BIN, ['--version'], { encoding: 'utf8' }).trim()).toBe(version);
  });

  it('keeps the native modules out of the bundle, loaded from node_modules by name', () => {
    const m = meta();
    const external = new Set(Object.values(m.outputs).flatMap((o) => o.imports.filter((i) => i.external).map((i) => i.path)));
    for (const name of NATIVE) expect(external, `${name} imported by name`).toContain(name);
    const bundled = Object.keys(m.inputs);
    for (const name of NATIVE) expect(bundled.filter((f) => f.includes(`node_modules/${name}/`)), `${name} bundled`).toEqual([]);
  });

  it('starts a verb with only what it uses: --version loads no verb, ls no engine, terminal or MCP', () => {
    const m = meta();
    /** The source files and packages behind what `output` loads at start. */
    const sources = (output: string) => {
      const loaded = [...loadedAtStart(m, output)];
      return [...loaded.filter((p) => !p.startsWith('out/')), ...loaded.flatMap((o) => Object.keys(m.outputs[o]?.inputs ?? {}))];
    };
    const atVersion = sources('out/cli/worldloom.js');
    expect(atVersion).toContain('src-main/cli/main.ts');
    expect(atVersion.filter((f) => /^src-main\/(service|store|engine|simulation|formats|cli\/commands)\//.test(f) || NATIVE.includes(f))).toEqual([]);
    const atLs = sources(outputOf(m, 'src-main/cli/commands/ls.ts'));
    expect(atLs).toContain('src-main/store/workspace-store.ts');
    expect(atLs).toContain('better-sqlite3');
    expect(atLs.filter((f) => ['onnxruntime-node', 'node-llama-cpp'].includes(f) || /^src-main\/engine\/(onnx\/onnx|gguf\/gguf)-engine/.test(f))).toEqual([]);
    expect(atLs.filter((f) => f.startsWith('src-main/cli/commands/') && f !== 'src-main/cli/commands/ls.ts')).toEqual([]);
  });
});
