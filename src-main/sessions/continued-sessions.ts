// Several sessions imported together (a project's, all of an agent's): an agent that starts a
// new file when a session is resumed and copies the conversation into it (Claude Code) would
// otherwise have every step before the resume imported twice. Each agent's format says which
// of its files another one carries on (SessionLocations.continuedSessions); this asks it for
// the files of the import it reads, and the import then reads each conversation once.
import { basename } from 'node:path';
import type { ImporterOptions } from '../formats/format';
import { FORMATS, importerFor } from '../formats/registry';
import { splitSessionPath } from '../parsing/session-path';
import { fileHead } from '../parsing/sources';

export interface ImportPlan {
  /** The format each file was recognised as, so its import need not tell it again. */
  formats: Map<string, string>;
  /** For each path whose conversation another path of the same import carries on: what its import is told. */
  elsewhere: Map<string, NonNullable<ImporterOptions['conversationIn']>>;
}

export async function planImport(paths: readonly string[], format = 'auto'): Promise<ImportPlan> {
  const plan: ImportPlan = { formats: new Map(), elsewhere: new Map() };
  if (paths.length < 2) return plan;
  const byFormat = new Map<string, string[]>();
  for (const path of paths) {
    // A session inside a file that holds many is its own; a file that cannot be read or told is said by its own import.
    if (splitSessionPath(path).session !== undefined) continue;
    let id: string;
    try {
      // Told as the import tells it (by the file's name and head), once for both.
      id = importerFor(format, basename(path), fileHead(path)).id;
    } catch {
      continue;
    }
    plan.formats.set(path, id);
    byFormat.set(id, [...(byFormat.get(id) ?? []), path]);
  }
  for (const [id, files] of byFormat) {
    const find = FORMATS.find((f) => f.importer?.id === id)?.sessions?.continuedSessions;
    if (!find || files.length < 2) continue;
    try {
      for (const [path, c] of await find(files)) plan.elsewhere.set(path, { file: c.in, copy: c.copy });
    } catch {
      // A file that cannot be read now is said by its own import; the others are imported whole.
    }
  }
  return plan;
}
