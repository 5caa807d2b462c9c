// Where Cline, Roo Code and Kilo Code tasks are looked for (../../sessions/cline-task-sessions.test.ts lists one).
import { describe, expect, it } from 'vitest';
import { clineTaskSessions } from './sessions';

describe('Cline / Roo Code / Kilo Code task folders', () => {
  it("each extension's tasks folder in each editor's storage, per operating system", () => {
    const linux = clineTaskSessions.folders({ home: '/home/ada', platform: 'linux', env: {} }).map((f) => f.path);
    expect(linux).toContain('/home/ada/.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks');
    expect(linux).toContain('/home/ada/.config/Cursor/User/globalStorage/rooveterinaryinc.roo-cline/tasks');
    expect(linux).toContain('/home/ada/.vscode-server/data/User/globalStorage/kilocode.kilo-code/tasks');
    const mac = clineTaskSessions.folders({ home: '/Users/ada', platform: 'darwin', env: {} }).map((f) => f.path);
    expect(mac).toContain('/Users/ada/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/tasks');
    const windows = clineTaskSessions.folders({ home: 'C:\\Users\\ada', platform: 'win32', env: { APPDATA: 'D:\\Roaming' } });
    expect(windows[0]).toEqual({ path: 'D:\\Roaming\\Code\\User\\globalStorage\\saoudrizwan.claude-dev\\tasks', from: 'APPDATA' });
  });
});
