// npm links the bins of dependencies but not of the project itself, so `npx worldloom`
// would not find the CLI in a fresh clone. `npm install` runs this (the `prepare` script)
// to put the project's own bin beside the others in node_modules/.bin.
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
// The target is package.json's own `bin` entry, so the two can never name different files.
const bin = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).bin.worldloom;
const target = join(root, bin);
const binDir = join(root, 'node_modules', '.bin');
mkdirSync(binDir, { recursive: true });
const link = join(binDir, 'worldloom');
rmSync(link, { force: true });
if (process.platform === 'win32') {
  writeFileSync(`${link}.cmd`, `@node "${target}" %*\r\n`);
} else {
  symlinkSync(relative(dirname(link), target), link);
  chmodSync(target, 0o755);
}
