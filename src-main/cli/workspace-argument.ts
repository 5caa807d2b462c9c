// What `--workspace PATH` may name, and what the CLI says when nothing is there: the ways
// that really make a workspace, and where the demo workspace is.
import { existsSync } from 'node:fs';
import { UserError } from '../common/user-error';
import { demoWorkspacePath } from '../service/demo-workspace';

export function missingWorkspaceError(path: string): UserError {
  const demo = demoWorkspacePath();
  return new UserError(
    `No workspace at ${path}. Check the path, or make one there: \`worldloom import FILE… --workspace ${path}\` ` +
      '(or `worldloom record`) creates it, as does New workspace… on the app\'s start screen. ' +
      (existsSync(demo)
        ? `The demo workspace is ${demo}.`
        : `The demo workspace will be ${demo} once you open it from the app's start screen (Open the demo workspace).`),
    'not-found',
  );
}
