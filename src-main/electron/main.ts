// The Electron door: one window, a sandboxed renderer, the core behind validated IPC.
import { app, BrowserWindow, dialog, ipcMain, Menu, session, shell, type IpcMainInvokeEvent } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { contentSecurityPolicy } from '../common/contract/content-security-policy';
import { openDemoWorkspace } from '../service/demo-workspace';
import { dispatch } from '../service/dispatch';
import { readRecent } from '../service/recent-workspaces';
import { importExtensions } from '../formats/registry';
import { Studio } from '../service/studio';
import { keychainSecrets } from './keychain';
import { useElectronSqliteBinding } from './native-sqlite';

const RENDERER_HTML = join(__dirname, '../renderer/index.html');
const RENDERER_URL = process.env.ELECTRON_RENDERER_URL;

const CSP = contentSecurityPolicy("'self'");

let mainWindow: BrowserWindow | null = null;

const studio = new Studio({
  door: 'electron',
  // A packed app has resources/ as plain files beside its asar (electron-builder.config.mjs), where
  // the engines' native code can open the embedded model by path.
  resourcesDir: app.isPackaged ? join(process.resourcesPath, 'worldloom') : join(app.getAppPath(), 'resources'),
  secrets: keychainSecrets(),
  pickWorkspace: async (mode) => {
    const filters = [{ name: 'Worldloom workspace', extensions: ['worldloom'] }];
    if (mode === 'create') {
      const r = await dialog.showSaveDialog(mainWindow!, { title: 'New workspace', defaultPath: 'untitled.worldloom', filters });
      return r.canceled || !r.filePath ? null : r.filePath;
    }
    const r = await dialog.showOpenDialog(mainWindow!, { title: 'Open workspace', properties: ['openFile'], filters });
    return r.canceled ? null : (r.filePaths[0] ?? null);
  },
  pickImportFiles: async () => {
    const r = await dialog.showOpenDialog(mainWindow!, {
      title: 'Import trajectories',
      properties: ['openFile', 'multiSelections'],
      filters: [{ name: 'Trajectories', extensions: importExtensions() }, { name: 'All files', extensions: ['*'] }],
    });
    return r.canceled ? [] : r.filePaths;
  },
  pickSavePath: async ({ title, defaultPath, extensions, folder }) => {
    if (folder) {
      const r = await dialog.showOpenDialog(mainWindow!, { title, defaultPath, properties: ['openDirectory', 'createDirectory', 'promptToCreate'] });
      return r.canceled ? null : (r.filePaths[0] ?? null);
    }
    const filters = extensions.length > 0 ? [{ name: extensions.map((e) => `.${e}`).join(', '), extensions }, { name: 'All files', extensions: ['*'] }] : [];
    const r = await dialog.showSaveDialog(mainWindow!, { title, defaultPath, filters });
    return r.canceled || !r.filePath ? null : r.filePath;
  },
});

/** Only our own page may call the core: not a navigated-away page, not an iframe. */
function trustedSender(event: IpcMainInvokeEvent): boolean {
  const url = event.senderFrame?.url ?? '';
  if (event.senderFrame !== event.sender.mainFrame) return false;
  if (RENDERER_URL) return url.startsWith(RENDERER_URL);
  return url === pathToFileURL(RENDERER_HTML).href || url.startsWith(pathToFileURL(RENDERER_HTML).href + '?') || url.startsWith(pathToFileURL(RENDERER_HTML).href + '#');
}

function sendMenuCommand(command: string): void {
  mainWindow?.webContents.send('worldloom:event', 'menu.command', { command });
}

function buildMenu(): void {
  const isMac = process.platform === 'darwin';
  Menu.setApplicationMenu(
    Menu.buildFromTemplate([
      ...(isMac ? [{ role: 'appMenu' as const }] : []),
      {
        label: 'File',
        submenu: [
          { label: 'New Workspace…', accelerator: 'CmdOrCtrl+N', click: () => sendMenuCommand('workspace.new') },
          { label: 'Open Workspace…', accelerator: 'CmdOrCtrl+O', click: () => sendMenuCommand('workspace.open') },
          { type: 'separator' },
          { label: 'Import Trajectories…', accelerator: 'CmdOrCtrl+I', click: () => sendMenuCommand('import') },
          { label: 'Export Workspace…', accelerator: 'CmdOrCtrl+E', click: () => sendMenuCommand('export') },
          { type: 'separator' },
          { label: 'Close Workspace', click: () => sendMenuCommand('workspace.close') },
          isMac ? { role: 'close' as const } : { role: 'quit' as const },
        ],
      },
      { role: 'editMenu' },
      { role: 'viewMenu' },
      { role: 'windowMenu' },
    ]),
  );
}

function createWindow(): void {
  mainWindow = new BrowserWindow({
    width: 1440,
    height: 900,
    title: 'Worldloom',
    webPreferences: {
      preload: join(__dirname, '../preload/preload.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  // Links open in the user's browser; the app window never navigates away from the UI.
  mainWindow.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  mainWindow.webContents.on('will-navigate', (e) => e.preventDefault());
  if (RENDERER_URL) void mainWindow.loadURL(RENDERER_URL);
  else void mainWindow.loadFile(RENDERER_HTML);
  mainWindow.on('closed', () => (mainWindow = null));
}

app.whenReady().then(() => {
  useElectronSqliteBinding();
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CSP] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ipcMain.handle('worldloom:invoke', async (event, method: unknown, input: unknown) => {
    if (!trustedSender(event)) return { ok: false, error: { code: 'forbidden', message: 'Calls are accepted only from the Worldloom window.' } };
    return dispatch(studio, method, input);
  });
  studio.onEvent((event, payload) => mainWindow?.webContents.send('worldloom:event', event, payload));
  const initial = process.argv.find((a) => a.endsWith('.worldloom'));
  try {
    if (initial) studio.openWorkspace(initial, 'open-or-create');
    // The first start opens the demo workspace, so there is something to simulate at once.
    else if (readRecent().length === 0) openDemoWorkspace(studio);
  } catch (err) {
    dialog.showErrorBox('Could not open the workspace', (err as Error).message);
  }
  buildMenu();
  createWindow();
  // The embedded default model loads in the background; the model panel shows its state.
  studio.loadModel().then(
    () => undefined,
    (err: Error) => dialog.showErrorBox('Could not load the default world model', err.message),
  );
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('window-all-closed', () => {
  void studio.dispose();
  if (process.platform !== 'darwin') app.quit();
});
