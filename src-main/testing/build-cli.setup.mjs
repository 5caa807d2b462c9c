// Vitest global setup: builds the CLI (out/cli/) before any test spawns it, so a test never
// runs an older build than the source beside it. Unchanged files are not rewritten.
import { buildCli } from '../cli/build-cli.mjs';

export async function setup() {
  await buildCli();
}
