// Test helper shared by the importer tests: runs an importer over a fixture or a string.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportItem } from '../parsing/import-item';
import type { TrajectoryImporter } from '../formats/format';
import { textSource } from '../parsing/sources';

/** A format's fixture: src-main/formats/<format>/fixtures/<name>. */
export const fixture = (format: string, name: string) => readFileSync(join(__dirname, '..', 'formats', format, 'fixtures', name), 'utf8');

export function runImporter(importer: TrajectoryImporter, name: string, text: string) {
  let n = 0;
  const items: ImportItem[] = [...importer.parse(textSource(name, text), () => `id-${n++}`, '2024-06-10T00:00:00Z')];
  return {
    bundles: items.flatMap((i) => (i.kind === 'trajectory' ? [i.bundle] : [])),
    problems: items.flatMap((i) => (i.kind === 'problem' ? [i] : [])),
    skipped: items.flatMap((i) => (i.kind === 'skipped' ? [i] : [])),
  };
}
