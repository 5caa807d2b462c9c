// The real files of other tools that tests read: ../shared/fixtures/real-world beside the
// repository's root (CI checks the repository out with ../shared next to it). Resolved from
// the root, not from each test's folder, so a test that moves still finds them. They are
// never copied into the project: a test over them is skipped, saying so, where they are absent.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** ../shared/fixtures/real-world, or a file or folder inside it. */
export function realWorld(...parts: string[]): string {
  return join(REPO_ROOT, '..', 'shared', 'fixtures', 'real-world', ...parts);
}

/** What a skipped test's title says: the folder it reads, and that it is skipped without it. */
export function realWorldNote(folder = ''): string {
  return `reads ../shared/fixtures/real-world${folder ? `/${folder}` : ''}; skipped where it is absent`;
}
