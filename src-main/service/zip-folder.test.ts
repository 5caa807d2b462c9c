import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { zipFolder } from './zip-folder';

describe('a folder as one zip', () => {
  it('holds every file under the folder, nested ones included, byte for byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wl-zip-'));
    const data = join(dir, 'dataset');
    mkdirSync(join(data, 'meta'), { recursive: true });
    const big = Array.from({ length: 50_000 }, (_, i) => JSON.stringify({ i, text: `sample ${i}` })).join('\n');
    writeFileSync(join(data, 'train.jsonl'), big);
    writeFileSync(join(data, 'README.md'), '# card\n');
    writeFileSync(join(data, 'meta', 'dataset_info.json'), '{}');
    const zipFile = join(dir, 'dataset.zip');
    const { files, bytes } = await zipFolder(data, zipFile, 'my-dataset');
    expect(files).toBe(3);
    expect(bytes).toBeLessThan(big.length);
    const entries = unzipSync(readFileSync(zipFile));
    expect(Object.keys(entries).sort()).toEqual(['my-dataset/README.md', 'my-dataset/meta/dataset_info.json', 'my-dataset/train.jsonl']);
    expect(strFromU8(entries['my-dataset/train.jsonl']!)).toBe(big);
  });
});
