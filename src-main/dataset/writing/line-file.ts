// A text file written line by line through one large buffer: one system call per
// megabyte instead of per line, and it waits when the disk falls behind.
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';

const FLUSH_AT = 1 << 20;

export class LineFile {
  private readonly stream: WriteStream;
  private pending = '';
  private readonly failed: Promise<never>;

  constructor(readonly path: string) {
    this.stream = createWriteStream(path);
    this.failed = new Promise((_, reject) => this.stream.once('error', reject));
    // Errors surface at the next flush or close; keep Node from reporting them as unhandled first.
    this.failed.catch(() => undefined);
  }

  /** Adds text (lines already end in "\n"); resolves only when the buffer had to wait for the disk. */
  write(text: string): void | Promise<void> {
    this.pending += text;
    if (this.pending.length < FLUSH_AT) return;
    const ok = this.stream.write(this.pending);
    this.pending = '';
    if (!ok) return Promise.race([once(this.stream, 'drain').then(() => undefined), this.failed]);
  }

  async close(): Promise<void> {
    this.stream.end(this.pending);
    this.pending = '';
    await Promise.race([once(this.stream, 'finish'), this.failed]);
  }
}
