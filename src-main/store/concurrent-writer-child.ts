// Child process for the concurrency tests: a second (or third) process on one workspace.
//   count N   — adds 1 to a shared counter N times, each a read-then-write transaction
//   hold MS   — takes the write lock and keeps it MS milliseconds
//   read      — opens the workspace (read-only here) and reports what it read and what a write said
import { WorkspaceStore } from './workspace-store';

const [workspace, mode, arg] = process.argv.slice(2) as [string, string, string | undefined];
const store = WorkspaceStore.open(workspace);
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

if (mode === 'count') {
  for (let i = 0; i < Number(arg); i++) {
    store.transaction(() => store.setSetting('counter', String(Number(store.getSetting('counter') ?? '0') + 1)));
  }
  process.stdout.write('done\n');
} else if (mode === 'hold') {
  store.transaction(() => {
    store.setSetting('held', String(process.pid));
    process.stdout.write('holding\n');
    pause(Number(arg));
  });
} else if (mode === 'read') {
  let write = 'written';
  try {
    store.setSetting('touched', '1');
  } catch (err) {
    write = (err as Error).message;
  }
  process.stdout.write(JSON.stringify({ readOnly: store.readOnly, info: store.info(), write }) + '\n');
}
store.close();
