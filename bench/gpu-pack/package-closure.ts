// Which installed npm packages a bundle needs at run time: the packages it imports, and everything
// they depend on (optional dependencies too, where installed: node-llama-cpp finds its prebuilt
// binaries that way), found by Node's own resolution from each package's folder.

import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

interface PackageJson { name?: string; dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }

/** 'a/b' → 'a', '@s/a/b' → '@s/a', 'node:fs' → null. */
export function packageName(specifier: string): string | null {
  if (specifier.startsWith('node:') || specifier.startsWith('.') || specifier.startsWith('/')) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The folder of `name` as Node would find it from `fromDir` (walking up the node_modules folders), or null. */
function findPackage(name: string, fromDir: string, root: string): string | null {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === root || dir === dirname(dir)) return null;
  }
}

/**
 * Package folders (relative to `root`) that `names` need, dependencies included. A missing required
 * dependency is an error; a missing optional one (another platform's binary) is left out.
 */
export function packageClosure(names: Iterable<string>, root: string, skip: (name: string) => boolean = () => false): string[] {
  const found = new Set<string>();
  const queue: { name: string; from: string; optional: boolean }[] = [...names].map((name) => ({ name, from: root, optional: false }));
  while (queue.length > 0) {
    const { name, from, optional } = queue.shift()!;
    if (skip(name)) continue;
    const folder = findPackage(name, from, root);
    if (!folder) {
      if (optional) continue;
      throw new Error(`${name} is needed by the GPU bench's bundle but is not installed under ${root}/node_modules: run npm install`);
    }
    // A package npm linked from elsewhere (the CUDA stand-ins under native/gguf-build-absent) is no build to carry.
    if (realpathSync(folder) !== folder) continue;
    const key = relative(root, folder);
    if (found.has(key)) continue;
    found.add(key);
    const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as PackageJson;
    for (const dependency of Object.keys(pkg.dependencies ?? {})) queue.push({ name: dependency, from: folder, optional: false });
    for (const dependency of Object.keys(pkg.optionalDependencies ?? {})) queue.push({ name: dependency, from: folder, optional: true });
  }
  return [...found].sort();
}
