// An export writes beside its destination under a temporary name that carries the writing
// process's id, then renames it into place. A process killed mid-export (kill -9, power loss)
// leaves that temporary behind; the next export to the same place removes the ones whose
// process is gone, and leaves alone those another live process is still writing.
import { readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** The temporary name's part that says which process writes it. */
export const partialTag = () => `pid${process.pid}`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, run by another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes leftovers of exports to `destination` by processes that no longer run: files
 * `.NAME.pidN-….partial` and folders `NAME.partial-pidN-…`. Returns what it removed.
 */
export function removeDeadPartials(destination: string): string[] {
  const dir = dirname(destination);
  const name = basename(destination);
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of entries) {
    const file = entry.startsWith(`.${name}.pid`) && entry.endsWith('.partial') ? entry.slice(name.length + 5) : null;
    const folder = entry.startsWith(`${name}.partial-pid`) ? entry.slice(name.length + 12) : null;
    const pid = Number(/^(\d+)-/.exec(file ?? folder ?? '')?.[1]);
    if (!Number.isInteger(pid) || pid <= 0 || alive(pid)) continue;
    rmSync(join(dir, entry), { recursive: true, force: true });
    removed.push(join(dir, entry));
  }
  return removed;
}
