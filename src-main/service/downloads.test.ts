import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Downloads, safeFileName } from './downloads';

describe('downloads offered to a browser', () => {
  it('hands a file over once, then deletes it', () => {
    const downloads = new Downloads();
    const path = downloads.pathFor('report.html');
    writeFileSync(path, '<p>hi</p>');
    const id = downloads.offer(path, 'report.html', 'text/html');
    expect(id.length).toBeGreaterThanOrEqual(32);
    const taken = downloads.take(id)!;
    expect(taken).toMatchObject({ name: 'report.html', contentType: 'text/html' });
    expect(readFileSync(taken.path, 'utf8')).toBe('<p>hi</p>');
    taken.done();
    expect(existsSync(path)).toBe(false);
    expect(downloads.take(id)).toBeNull();
    downloads.dispose();
  });

  it('keeps files in a private temporary folder and removes it on dispose', () => {
    const downloads = new Downloads();
    const path = downloads.pathFor('../../etc/passwd');
    expect(path.startsWith(dirname(path))).toBe(true);
    expect(path).not.toContain('..');
    expect(dirname(path)).toMatch(/worldloom-downloads-/);
    writeFileSync(path, 'x');
    downloads.offer(path, 'x.txt', 'text/plain');
    downloads.dispose();
    expect(existsSync(dirname(path))).toBe(false);
  });

  it('makes names safe for a header and a file system', () => {
    expect(safeFileName('../a/b\\c"d;e.html')).toBe('c_d_e.html');
    expect(safeFileName('...')).toBe('download');
    expect(safeFileName('sim-vs-real 1.json')).toBe('sim-vs-real 1.json');
  });
});
