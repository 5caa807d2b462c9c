// Helpers for the session locations each agent's format folder declares (format.ts
// SessionLocations): the folder an environment variable names, else a default under the home
// folder; the working directory a session's first part names. Pure path arithmetic on the
// SessionHome it is given, so a test can hand it any home, platform and environment.
import { posix, win32 } from 'node:path';
import type { SessionFolder, SessionHome } from './format';

/** Joins path parts the way the given platform writes them. */
export function joinFor(home: SessionHome, ...parts: string[]): string {
  return (home.platform === 'win32' ? win32 : posix).join(...parts);
}

/**
 * The folders `variable` names (some agents take a list, separated like PATH), each joined with
 * `below`; else `defaults`, each relative to the home folder, then joined with `below`.
 */
export function foldersFrom(home: SessionHome, variable: string, defaults: readonly string[], below: readonly string[], listSeparator?: string): SessionFolder[] {
  const named = home.env[variable]?.trim();
  if (named) {
    const roots = listSeparator ? named.split(listSeparator).map((r) => r.trim()).filter(Boolean) : [named];
    return roots.map((root) => ({ path: joinFor(home, root, ...below), from: variable }));
  }
  return defaults.map((d) => ({ path: joinFor(home, home.home, d, ...below), from: 'default' }));
}

/** The first `"cwd"` (or `"<key>"`) string field in a session's first part, decoded. */
export function workingDirectoryIn(head: string, key = 'cwd'): string | null {
  const m = new RegExp(`"${key}"\\s*:\\s*("(?:[^"\\\\\\n]|\\\\.)*")`).exec(head);
  if (!m) return null;
  try {
    const value: unknown = JSON.parse(m[1]!);
    return typeof value === 'string' && value !== '' ? value : null;
  } catch {
    return null;
  }
}

/** The first folder of a path relative to a sessions folder (`<project>/<session>.jsonl` → `<project>`). */
export function firstFolderOf(relativePath: string): string | null {
  const parts = relativePath.split(/[\\/]/);
  return parts.length > 1 ? parts[0]! : null;
}
