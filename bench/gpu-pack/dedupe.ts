// Identical files of a folder made into hard links of one another, so an archive (tar keeps hard
// links) stores them once: node-llama-cpp's CPU and Vulkan builds share fifteen CPU libraries.

import { createHash } from 'node:crypto';
import { linkSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/** Links every file to the first one with the same bytes; small files are left alone (not worth a read twice). */
export function linkIdenticalFiles(dir: string, minBytes = 64 * 1024): { files: number; bytes: number } {
  const bySize = new Map<number, string[]>();
  for (const path of filesUnder(dir)) {
    const { size } = statSync(path);
    if (size < minBytes) continue;
    bySize.set(size, [...(bySize.get(size) ?? []), path]);
  }
  let files = 0;
  let bytes = 0;
  for (const [size, paths] of bySize) {
    if (paths.length < 2) continue;
    const first = new Map<string, string>();
    for (const path of paths) {
      const digest = createHash('sha256').update(readFileSync(path)).digest('hex');
      const original = first.get(digest);
      if (!original) { first.set(digest, path); continue; }
      rmSync(path);
      linkSync(original, path);
      files += 1;
      bytes += size;
    }
  }
  return { files, bytes };
}
