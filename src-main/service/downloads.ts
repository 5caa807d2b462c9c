// Files made for a user who is not on this machine (the host door in a browser, perhaps over
// an SSH tunnel): a report or an export is written into a private temporary folder and
// offered under a random one-time id; the host hands it to the browser once, as an
// attachment, then deletes it. Nothing lands in the server's working directory.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/** An offer not taken within this time is withdrawn and its file deleted. */
export const DOWNLOAD_LIFETIME_MS = 15 * 60 * 1000;

export interface OfferedDownload {
  /** Where the file is until it is taken. */
  path: string;
  /** The name the browser saves it under. */
  name: string;
  contentType: string;
}

interface Offer extends OfferedDownload {
  expires: number;
  timer: ReturnType<typeof setTimeout>;
}

/** A file name that is safe in a Content-Disposition header and on any file system. */
export function safeFileName(name: string): string {
  const cleaned = basename(name.replace(/\\/g, '/'))
    .replace(/[^\w.\- ()+@]/g, '_')
    .replace(/^\.+/, '')
    .slice(0, 200);
  return cleaned || 'download';
}

export class Downloads {
  readonly #offers = new Map<string, Offer>();
  #folder: string | null = null;

  /** A new path in the private folder where a file to offer can be written. */
  pathFor(name: string): string {
    this.#folder ??= mkdtempSync(join(tmpdir(), 'worldloom-downloads-'));
    return join(this.#folder, `${randomBytes(8).toString('hex')}-${safeFileName(name)}`);
  }

  /** Offers a file written at `path` (from pathFor) for one download; gives back its id. */
  offer(path: string, name: string, contentType: string): string {
    const id = randomBytes(24).toString('base64url');
    const timer = setTimeout(() => this.#withdraw(id), DOWNLOAD_LIFETIME_MS);
    // A waiting offer must not keep a CLI or test process alive.
    timer.unref();
    this.#offers.set(id, { path, name: safeFileName(name), contentType, expires: Date.now() + DOWNLOAD_LIFETIME_MS, timer });
    return id;
  }

  /** Whether `id` is on offer (a HEAD request asks this; it must not use the offer up). */
  has(id: string): boolean {
    const offer = this.#offers.get(id);
    return offer !== undefined && offer.expires >= Date.now();
  }

  /** The offer under `id`, once: a second take of the same id finds nothing. The caller deletes the file with `done`. */
  take(id: string): (OfferedDownload & { done(): void }) | null {
    const offer = this.#offers.get(id);
    if (!offer) return null;
    this.#offers.delete(id);
    clearTimeout(offer.timer);
    if (offer.expires < Date.now()) {
      rmSync(offer.path, { force: true });
      return null;
    }
    return { path: offer.path, name: offer.name, contentType: offer.contentType, done: () => rmSync(offer.path, { force: true }) };
  }

  #withdraw(id: string): void {
    const offer = this.#offers.get(id);
    if (!offer) return;
    this.#offers.delete(id);
    rmSync(offer.path, { force: true });
  }

  /** Withdraws every offer and removes the folder (process exit). */
  dispose(): void {
    for (const offer of this.#offers.values()) clearTimeout(offer.timer);
    this.#offers.clear();
    if (this.#folder) rmSync(this.#folder, { recursive: true, force: true });
    this.#folder = null;
  }
}
