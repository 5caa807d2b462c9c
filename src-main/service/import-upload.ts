// Files dropped onto the UI reach the core in chunks, never as one message: the UI reads a
// slice at a time and the core appends it to a temporary file, then imports that file the
// way `worldloom import` does (same byte-level UTF-8 checks, same streaming line reader).
// Neither side ever holds the whole file.
import { randomBytes } from 'node:crypto';
import { closeSync, copyFileSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileHead, fileSource } from '../parsing/sources';
import type { ImporterOptions } from '../formats/format';
import type { ImportSource } from '../parsing/sources';
import type { ImportReport } from '../formats/import-trajectories';
import { UserError } from '../common/user-error';

/** The name of an AgentWorldBench file: one domain's cases (no folder, nothing but a plain name). */
const BENCHMARK_FILE = /^[A-Za-z0-9][A-Za-z0-9._-]*_test\.jsonl$/;

/** Uploads in progress at once; a page that starts more is told to finish some first. */
const MAX_OPEN_UPLOADS = 8;

interface Upload {
  name: string;
  format: string;
  chatAs?: ImporterOptions['chatAs'];
  size: number;
  received: number;
  dir: string;
  path: string;
  fd: number;
}

export class ImportUploads {
  private readonly open = new Map<string, Upload>();

  begin(input: { name: string; format: string; size: number } & ImporterOptions): { uploadId: string } {
    if (this.open.size >= MAX_OPEN_UPLOADS) {
      throw new UserError(`${MAX_OPEN_UPLOADS} imports are already being uploaded; wait for them to finish, then drop the rest.`, 'busy');
    }
    const dir = mkdtempSync(join(tmpdir(), 'worldloom-upload-'));
    const path = join(dir, 'upload');
    const uploadId = randomBytes(12).toString('hex');
    this.open.set(uploadId, { ...input, received: 0, dir, path, fd: openSync(path, 'w', 0o600) });
    return { uploadId };
  }

  chunk(input: { uploadId: string; offset: number; data: string }): { received: number } {
    const upload = this.get(input.uploadId);
    if (input.offset !== upload.received) {
      throw new UserError(`The upload of ${upload.name} expected bytes from ${upload.received}, not ${input.offset}; drop the file again.`, 'invalid');
    }
    const bytes = Buffer.from(input.data, 'base64');
    if (upload.received + bytes.length > upload.size) {
      this.abort({ uploadId: input.uploadId });
      throw new UserError(`${upload.name} sent more than the ${upload.size} bytes it announced; the upload was dropped. Drop the file again.`, 'invalid');
    }
    writeSync(upload.fd, bytes);
    upload.received += bytes.length;
    return { received: upload.received };
  }

  /** Imports the uploaded file through `importFile`; the upload is gone afterwards, whatever happens. */
  async finish(
    input: { uploadId: string },
    importFile: (source: ImportSource, options: { format: string; head: string } & ImporterOptions) => Promise<ImportReport>,
  ): Promise<ImportReport> {
    const upload = this.get(input.uploadId);
    try {
      if (upload.received !== upload.size) {
        throw new UserError(`${upload.name} arrived incomplete (${upload.received} of ${upload.size} bytes); drop the file again.`, 'invalid');
      }
      closeSync(upload.fd);
      upload.fd = -1;
      return await importFile(fileSource(upload.path, upload.name), { format: upload.format, head: fileHead(upload.path), ...(upload.chatAs ? { chatAs: upload.chatAs } : {}) });
    } finally {
      this.abort(input);
    }
  }

  /**
   * Uploaded AgentWorldBench files (`<domain>_test.jsonl`) as a benchmark folder of their own:
   * a browser cannot name a folder on the machine running Worldloom, so the Evaluation panel's
   * file picker sends the files and evaluates the folder they land in. The uploads are gone after.
   */
  benchmarkFolder(input: { uploadIds: string[] }): { dataDir: string } {
    const uploads = input.uploadIds.map((uploadId) => this.get(uploadId));
    try {
      for (const upload of uploads) {
        if (!BENCHMARK_FILE.test(upload.name)) {
          throw new UserError(`${upload.name} is not an AgentWorldBench file: the benchmark's files are named <domain>_test.jsonl (terminal_test.jsonl, mcp_test.jsonl…). Choose those files.`, 'invalid');
        }
        if (upload.received !== upload.size) throw new UserError(`${upload.name} arrived incomplete (${upload.received} of ${upload.size} bytes); choose the file again.`, 'invalid');
      }
      const dataDir = mkdtempSync(join(tmpdir(), 'worldloom-benchmark-'));
      for (const upload of uploads) {
        closeSync(upload.fd);
        upload.fd = -1;
        copyFileSync(upload.path, join(dataDir, upload.name));
      }
      return { dataDir };
    } finally {
      for (const uploadId of input.uploadIds) this.abort({ uploadId });
    }
  }

  abort(input: { uploadId: string }): { aborted: boolean } {
    const upload = this.open.get(input.uploadId);
    if (!upload) return { aborted: false };
    this.open.delete(input.uploadId);
    if (upload.fd >= 0) closeSync(upload.fd);
    rmSync(upload.dir, { recursive: true, force: true });
    return { aborted: true };
  }

  private get(uploadId: string): Upload {
    const upload = this.open.get(uploadId);
    if (!upload) throw new UserError('This upload is not in progress (it finished, failed or was never started); drop the file again.', 'not-found');
    return upload;
  }
}
