// Files for the user of a browser tab (the host door): the core offers a report or export
// once under an id, and the browser fetches it as an attachment, so it reaches the person at
// the browser (perhaps over an SSH tunnel) and not the server's working directory. The
// desktop app has the file system and writes where the user chose.
import { call } from './client';

/** True in a plain browser tab on `worldloom serve`; false in the desktop app. */
export function downloadsThroughBrowser(): boolean {
  return window.worldloom === undefined;
}

/** The one-time link of an offered file: the host checks this page's token and the id. */
export function downloadUrl(downloadId: string): string {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  return `/download/${encodeURIComponent(downloadId)}?token=${encodeURIComponent(token)}`;
}

/** Lets the browser save the offered file (its name comes from the host's Content-Disposition). */
export function saveDownload(downloadId: string): void {
  const link = document.createElement('a');
  link.href = downloadUrl(downloadId);
  link.download = '';
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}

/** The last part of a path the user typed: the name the browser saves the file under. */
export function fileNameOf(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path;
}

/**
 * The desktop app's save dialog (a folder chooser for a dataset); null when the user cancels.
 * Only where `app.info.nativeDialogs` says there are native dialogs.
 */
export async function chooseSavePath(request: { title: string; defaultPath: string; extensions?: string[]; folder?: boolean }): Promise<string | null> {
  const { path } = await call('dialog.pickSavePath', request);
  return path;
}
