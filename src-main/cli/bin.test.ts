import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

describe('the worldloom bin', () => {
  it("is package.json's bin entry, an existing Node script", () => {
    const bin: string = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).bin.worldloom;
    const file = join(root, bin);
    expect(existsSync(file), `${bin} must exist`).toBe(true);
    expect(readFileSync(file, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  });
});
