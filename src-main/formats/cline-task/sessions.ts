// Where Cline, Roo Code and Kilo Code keep their tasks: a folder a task, `tasks/<id>/
// api_conversation_history.json`, in the extension's global storage of the editor it runs in
// (VS Code, its Insiders build, VSCodium, Cursor, Windsurf): ~/.config/<editor>/User/
// globalStorage/<extension id> on Linux, ~/Library/Application Support/<editor>/… on macOS,
// %APPDATA%\<editor>\… on Windows; a remote VS Code server keeps them under ~/.vscode-server/data
// (~/.vscode-remote/data in Codespaces).
import type { SessionFolder, SessionLocations } from '../format';
import { firstFolderOf, joinFor } from '../session-folders';

/** Each extension's id in the editor's storage. */
const EXTENSIONS = ['saoudrizwan.claude-dev', 'rooveterinaryinc.roo-cline', 'kilocode.kilo-code'] as const;
const EDITORS = ['Code', 'Code - Insiders', 'VSCodium', 'Cursor', 'Windsurf'] as const;
const REMOTE = ['.vscode-server/data', '.vscode-remote/data'] as const;

/** The working folder Cline names in the editor's state it sends with the first message. */
const WORKING_FOLDER = /# Current Working Directory \(((?:[^)\\"]|\\.)+)\) Files/;

export const clineTaskSessions: SessionLocations = {
  agent: 'Cline / Roo Code / Kilo Code',
  folders: (home) => {
    const appData = home.env.APPDATA?.trim();
    const roots: SessionFolder[] =
      home.platform === 'win32'
        ? EDITORS.map((e) => ({ path: joinFor(home, appData || joinFor(home, home.home, 'AppData', 'Roaming'), e, 'User', 'globalStorage'), from: appData ? 'APPDATA' : 'default' }))
        : [
            ...EDITORS.map((e) => ({ path: home.platform === 'darwin' ? joinFor(home, home.home, 'Library', 'Application Support', e, 'User', 'globalStorage') : joinFor(home, home.home, '.config', e, 'User', 'globalStorage'), from: 'default' })),
            ...REMOTE.map((r) => ({ path: joinFor(home, home.home, r, 'User', 'globalStorage'), from: 'default' })),
          ];
    return roots.flatMap((root) => EXTENSIONS.map((ext) => ({ path: joinFor(home, root.path, ext, 'tasks'), from: root.from })));
  },
  files: ['*/api_conversation_history.json'],
  // A result's header (`[execute_command for 'ls'] Result:`, one per call the extension ran) or a tool_result block with its call's id.
  toolCall: /"text"\s*:\s*"\[[a-z_]+(?:[^"\\]|\\.){0,200}?\] Result:|"type"\s*:\s*"tool_result"\s*,\s*"tool_use_id"\s*:\s*"([^"]+)"/g,
  toolCallHint: 'esult',
  project: (head, relativePath) => {
    const m = WORKING_FOLDER.exec(head);
    if (m) {
      try {
        return JSON.parse(`"${m[1]}"`) as string;
      } catch {
        return m[1]!;
      }
    }
    return firstFolderOf(relativePath);
  },
};
