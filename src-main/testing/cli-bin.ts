// The CLI the tests spawn: the built one a user runs (package.json's bin), which the test
// setup (build-cli.setup.mjs) builds from the current source first.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export const CLI_BIN = join(ROOT, 'out', 'cli', 'worldloom.js');
