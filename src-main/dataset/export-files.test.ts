// What an export leaves on disk: ordinary permissions on success, nothing at all on failure.
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatasetExportInput } from '../common/contract/dataset';
import { writeTextFile } from './export-file';
import type { WorkspaceStore } from '../store/workspace-store';
import { exportAs, exportFileAs } from '../testing/registered-export';
import { bundleSource, fixtureBundles } from '../testing/dataset-fixtures';

const freshDir = () => mkdtempSync(join(tmpdir(), 'wl-export-files-'));
const umask = process.umask();
const partials = (dir: string) => readdirSync(dir).filter((n) => n.includes('.partial'));

describe('exported files', () => {
  it('are a folder and files with the permissions of the user\'s umask, not private to the exporter', async () => {
    const out = join(freshDir(), 'ds');
    await exportAs(bundleSource(fixtureBundles()), DatasetExportInput.parse({ out, format: 'messages' }));
    expect(statSync(out).mode & 0o777).toBe(0o777 & ~umask);
    expect(statSync(join(out, 'train.jsonl')).mode & 0o777).toBe(0o666 & ~umask);
  });

  it('leave no partial folder when a dataset export fails part-way', async () => {
    const dir = freshDir();
    let counted = 0;
    // The tokenizer gives out after a few examples: the export's temporary folder exists by then.
    const failing = {
      label: 'fails part-way',
      exact: true,
      count: (text: string) => {
        if (++counted > 3) throw new Error('the tokenizer went away');
        return text.length;
      },
    };
    await expect(exportAs(bundleSource(fixtureBundles()), DatasetExportInput.parse({ out: join(dir, 'ds'), format: 'messages' }), { tokenCounter: failing })).rejects.toThrow(/tokenizer went away/);
    expect(counted).toBeGreaterThan(3);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('leave no partial file when a file export fails part-way, and never write into / or a folder', async () => {
    const dir = freshDir();
    const failing = {
      *iterateBundles() {
        yield* fixtureBundles().slice(0, 1);
        throw new Error('the disk went away');
      },
    } as unknown as WorkspaceStore;
    await expect(exportFileAs(failing, join(dir, 'out.jsonl'), 'jsonl')).rejects.toThrow(/disk went away/);
    // Settled when it rejects: its stream has closed, so no file can appear after this either.
    expect(readdirSync(dir)).toEqual([]);
    const rootBefore = partials('/');
    await expect(exportFileAs(failing, '/', 'jsonl')).rejects.toThrow(/is a folder; export to a file path inside it/);
    await expect(writeTextFile('/', 'report')).rejects.toThrow(/is a folder/);
    await expect(writeTextFile(dir, 'report')).rejects.toThrow(/is a folder/);
    expect(partials('/')).toEqual(rootBefore);
    expect(existsSync('/.partial')).toBe(false);
    await writeTextFile(join(dir, 'report.html'), '<p>ok</p>');
    expect(readdirSync(dir)).toEqual(['report.html']);
  });
});
