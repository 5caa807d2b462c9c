// A folder as one .zip file, streamed (fflate): a dataset export (train and validation files,
// the card) becomes one download for a browser. Files are read and compressed a chunk at a
// time, so a large dataset never sits in memory whole.
import { createReadStream, createWriteStream, readdirSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join, relative, sep } from 'node:path';
import { Zip, ZipDeflate } from 'fflate';

function filesUnder(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...filesUnder(full));
    else if (entry.isFile()) files.push(full);
  }
  return files.sort();
}

/** Writes every file under `dir` into `zipFile`, named by its path inside `dir` under `root/`. */
export async function zipFolder(dir: string, zipFile: string, root: string): Promise<{ files: number; bytes: number }> {
  const out = createWriteStream(zipFile, { flags: 'wx' });
  const finished = new Promise<void>((resolve, reject) => {
    const zip = new Zip((err, chunk, final) => {
      if (err) {
        reject(err);
        return;
      }
      out.write(chunk);
      if (final) out.end(() => resolve());
    });
    void (async () => {
      try {
        for (const file of filesUnder(dir)) {
          const entry = new ZipDeflate(`${root}/${relative(dir, file).split(sep).join('/')}`, { level: 6 });
          zip.add(entry);
          const stream = createReadStream(file);
          for await (const chunk of stream) {
            entry.push(chunk as Uint8Array);
            // Let the output drain before reading more.
            if (out.writableNeedDrain) await once(out, 'drain');
          }
          entry.push(new Uint8Array(0), true);
        }
        zip.end();
      } catch (err) {
        zip.terminate();
        out.destroy();
        reject(err as Error);
      }
    })();
  });
  await finished;
  return { files: filesUnder(dir).length, bytes: statSync(zipFile).size };
}
