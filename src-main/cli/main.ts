// `worldloom <verb>`: the command-line door to the same core the app uses. Each verb lives in
// its own file under commands/ and is listed in verbs.ts; only the verb typed is loaded.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { PROJECT_ROOT } from './paths';
import { VERBS, verbsFor } from './verbs';

const program = new Command()
  .name('worldloom')
  .description('Worldloom: a trajectory studio for language world models')
  .version(
    (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    '-V, --version',
    'print the version',
  )
  .showHelpAfterError();

async function main(): Promise<void> {
  const names = verbsFor(process.argv.slice(2));
  for (const register of await Promise.all(names.map((name) => VERBS[name]!()))) register(program);
  await program.parseAsync(process.argv);
}

main().catch(async (err: unknown) => {
  // Loaded only on failure: the error mapping needs the contract, which --version never loads.
  const { toUserError } = await import('../service/dispatch');
  process.stderr.write(`worldloom: ${toUserError(err).message}\n`);
  process.exit(1);
});
