// `worldloom <verb>`: the command-line door to the same core the app uses. Each verb
// lives in its own file under commands/.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { toUserError } from '../service/dispatch';
import { registerExport } from './commands/export';
import { registerImport } from './commands/import';
import { registerInfo } from './commands/info';
import { registerServe } from './commands/serve';
import { registerSimulate } from './commands/simulate';
import { registerResample } from './commands/resample';
import { registerGpuInstall } from './commands/gpu-install';
import { registerRecord } from './commands/record';
import { registerReplay } from './commands/replay';
import { registerEval } from './commands/eval';
import { registerPerturb } from './commands/perturb';
import { registerMcpServe } from './commands/mcp-serve';
import { registerExpand } from './commands/expand';
import { registerLs } from './commands/ls';
import { registerCurate } from './commands/curate';
import { PROJECT_ROOT } from './paths';

const program = new Command()
  .name('worldloom')
  .description('Worldloom: a trajectory studio for language world models')
  .version(
    (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    '-V, --version',
    'print the version',
  )
  .showHelpAfterError();

for (const register of [registerServe, registerImport, registerExport, registerInfo, registerLs, registerCurate, registerSimulate, registerResample, registerGpuInstall, registerEval, registerPerturb, registerRecord, registerReplay, registerMcpServe, registerExpand]) register(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  process.stderr.write(`worldloom: ${toUserError(err).message}\n`);
  process.exit(1);
});
