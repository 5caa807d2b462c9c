// Import sources: a file on disk read in chunks (Node only), or text already in memory.
// Lines that are not valid UTF-8 are reported, not guessed at. A UTF-8 byte order mark
// (which Windows editors write) is not part of the content and is dropped, for every
// format. A line longer than MAX_LINE_BYTES is skipped without being held in memory.
import { isUtf8 } from 'node:buffer';
import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { ImportFormatError } from './import-item';
import { MAX_DOCUMENT_BYTES, MAX_LINE_BYTES } from './json-limits';

/** One line of a source, already decoded; `error` is set when the bytes were not valid UTF-8. */
export interface SourceLine {
  lineNo: number;
  text: string;
  error?: string;
}

/** What a reader reads: a file's lines or its whole text, never the file system or the database. */
export interface ImportSource {
  /** File name (for messages and provenance), not a path to open. */
  name: string;
  /** Lines in order. Line-based formats stream through this. */
  lines(): Iterable<SourceLine>;
  /** The whole text, for formats that are one JSON document. */
  text(): string;
  /** The file on disk, for binary formats (Parquet) that read it themselves; absent for text already in memory. */
  path?(): string;
  /** In a file that holds many sessions (an agent's database), the one to read (./session-path.ts); all of them when absent. */
  session?: string;
}

/**
 * Lines a reader built from something that is not text (Parquet rows, an agent's database) as a
 * source: read line by line; a caller that asks for the whole text gets the head (64 KiB) that
 * format detection needs, never the whole of it.
 */
export function builtLinesSource(name: string, lines: readonly SourceLine[]): ImportSource {
  return {
    name,
    lines: () => lines,
    text: () => {
      let head = '';
      for (const line of lines) {
        if (head.length >= 64 * 1024) break;
        head += `${line.text}\n`;
      }
      return head;
    },
  };
}

const CHUNK = 4 * 1024 * 1024;
const NEWLINE = 0x0a;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MiB` : `${bytes} bytes`);

function decodeLine(bytes: Buffer, lineNo: number): SourceLine {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === 0x0d) end--;
  const start = lineNo === 1 && bytes.subarray(0, 3).equals(BOM) ? 3 : 0;
  const slice = bytes.subarray(start, Math.max(start, end));
  if (!isUtf8(slice)) return { lineNo, text: '', error: 'invalid UTF-8 bytes' };
  return { lineNo, text: slice.toString('utf8') };
}

const tooLong = (lineNo: number, max: number): SourceLine => ({ lineNo, text: '', error: `line longer than ${size(max)} was skipped` });

export function* fileLines(path: string, maxLineBytes = MAX_LINE_BYTES): Iterable<SourceLine> {
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.allocUnsafe(CHUNK);
    let carry: Buffer = Buffer.alloc(0);
    let lineNo = 0;
    // Inside a line already past the limit: its bytes are dropped until its newline.
    let skipping = false;
    for (;;) {
      const read = readSync(fd, chunk, 0, CHUNK, null);
      if (read === 0) break;
      const buf: Buffer = carry.length ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read);
      let start = 0;
      for (let nl = buf.indexOf(NEWLINE, start); nl >= 0; nl = buf.indexOf(NEWLINE, start)) {
        if (skipping) {
          skipping = false;
          yield tooLong(++lineNo, maxLineBytes);
        } else if (nl - start > maxLineBytes) yield tooLong(++lineNo, maxLineBytes);
        else yield decodeLine(buf.subarray(start, nl), ++lineNo);
        start = nl + 1;
      }
      if (skipping || buf.length - start > maxLineBytes) {
        skipping = true;
        carry = Buffer.alloc(0);
      } else carry = Buffer.from(buf.subarray(start));
    }
    if (skipping) yield tooLong(++lineNo, maxLineBytes);
    else if (carry.length) yield decodeLine(carry, ++lineNo);
  } finally {
    closeSync(fd);
  }
}

const dropBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

export function fileHead(path: string, bytes = 64 * 1024): string {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const read = readSync(fd, buf, 0, bytes, 0);
    return dropBom(buf.subarray(0, read).toString('utf8'));
  } finally {
    closeSync(fd);
  }
}

export function fileSource(path: string, name = basename(path)): ImportSource {
  return {
    name,
    path: () => path,
    lines: () => fileLines(path),
    text: () => {
      const bytes = statSync(path).size;
      if (bytes > MAX_DOCUMENT_BYTES) {
        throw new ImportFormatError(`${name} is ${size(bytes)}; a whole-file JSON trajectory larger than ${size(MAX_DOCUMENT_BYTES)} is refused. Split it, or convert it to JSONL.`);
      }
      return dropBom(readFileSync(path, 'utf8'));
    },
  };
}

/** Text already decoded (typed or pasted). U+FFFD is a character like any other here, as in a file. */
export function textSource(name: string, text: string): ImportSource {
  const content = dropBom(text);
  return {
    name,
    *lines() {
      const lines = content.split('\n');
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i]!;
        yield { lineNo: i + 1, text: line.endsWith('\r') ? line.slice(0, -1) : line };
      }
    },
    text: () => content,
  };
}
