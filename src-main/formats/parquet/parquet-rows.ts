// Parquet rows as JSON lines, bounded by what they decode to. A Parquet file is compressed:
// a few kilobytes can claim gigabytes of rows. The footer's sizes are checked before anything
// is decoded, every page's decompressed bytes are counted as it is decompressed (a footer
// can lie), row groups are read one at a time and only the columns a chat row uses, and each
// row becomes its own line; nothing is ever joined into one string.
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema, snappyUncompress } from 'hyparquet';
import { ImportFormatError } from '../../parsing/import-item';
import { builtLinesSource, type ImportSource, type SourceLine } from '../../parsing/sources';
import { MAX_IMPORT_BYTES, MAX_LINE_BYTES, importLimitHint, rowsAllowed } from '../../parsing/json-limits';

/** Rows written out between two chances for other requests to run. */
const PAUSE_EVERY_BYTES = 4 * 1024 * 1024;

/** The columns a chat row is read from (../../parsing/chat-rows.ts); others are never decoded. */
const CHAT_COLUMNS = ['messages', 'tools', 'domain', 'title'];

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/** BigInt columns (int64) as numbers: JSON has no BigInt. */
const jsonSafe = (_key: string, value: unknown) => (typeof value === 'bigint' ? Number(value) : value);

export interface ParquetLimits {
  /** Most bytes the file may decompress to, and most text its rows may become. */
  maxBytes?: number;
}

/**
 * The chat rows of a Parquet file as a line source (one JSON row a line, numbered by row).
 * Throws an ImportFormatError naming the limit, and the flag that raises it, when the file
 * would decode to more.
 */
export async function parquetChatLines(path: string, name: string, limits: ParquetLimits = {}): Promise<ImportSource> {
  const maxBytes = limits.maxBytes ?? MAX_IMPORT_BYTES;
  const maxRows = rowsAllowed(maxBytes);
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const columns = parquetSchema(metadata).children.map((child) => child.element.name);
  if (!columns.includes('messages')) {
    throw new ImportFormatError(`${name} has no "messages" column (its columns: ${columns.join(', ')}); Worldloom reads chat datasets whose messages column holds {role, content} lists.`);
  }
  const read = CHAT_COLUMNS.filter((column) => columns.includes(column));
  const rows = Number(metadata.num_rows);
  if (rows > maxRows) {
    throw new ImportFormatError(`${name} has ${rows} rows; an imported file may hold at most ${maxRows}. ${importLimitHint(maxBytes)}`);
  }
  // What the footer says the chosen columns decompress to, before any of it is decoded.
  let claimed = 0;
  for (const group of metadata.row_groups) {
    for (const chunk of group.columns) {
      if (chunk.meta_data && read.includes(chunk.meta_data.path_in_schema[0]!)) claimed += Number(chunk.meta_data.total_uncompressed_size);
    }
  }
  const tooBig = (what: string) =>
    new ImportFormatError(`${name} ${what}; an imported file may decode to at most ${mib(maxBytes)}. ${importLimitHint(maxBytes)}`);
  if (claimed > maxBytes) throw tooBig(`says its rows decompress to ${mib(claimed)}`);

  // Every page is counted as it is decompressed, so a footer that lies is caught as well.
  let decompressed = 0;
  const count = (bytes: number) => {
    decompressed += bytes;
    if (decompressed > maxBytes) throw tooBig(`decompresses to more than ${mib(maxBytes)}`);
  };
  const compressors = {
    SNAPPY: (input: Uint8Array, outputLength: number) => {
      count(outputLength);
      const output = new Uint8Array(outputLength);
      snappyUncompress(input, output);
      return output;
    },
  };

  const lines: SourceLine[] = [];
  let emitted = 0;
  let lastPause = 0;
  let groupStart = 0;
  for (const group of metadata.row_groups) {
    const groupRows = Number(group.num_rows);
    // A nested column is decoded a whole row group at a time, so the group is the unit read.
    let objects: Record<string, unknown>[];
    try {
      objects = await parquetReadObjects({ file, metadata, columns: read, rowStart: groupStart, rowEnd: groupStart + groupRows, compressors });
    } catch (error) {
      if (error instanceof ImportFormatError) throw error;
      throw new ImportFormatError(`${name} could not be read as Parquet: ${(error as Error).message}`);
    }
    for (const row of objects) {
      const lineNo = lines.length + 1;
      const text = JSON.stringify(row, jsonSafe);
      if (text.length > MAX_LINE_BYTES) {
        lines.push({ lineNo, text: '', error: `row longer than ${mib(MAX_LINE_BYTES)} was skipped` });
        continue;
      }
      emitted += text.length;
      if (emitted > maxBytes) throw tooBig(`holds more than ${mib(maxBytes)} of rows`);
      lines.push({ lineNo, text });
      // One row group can hold hundreds of MiB of rows (repeats of one dictionary entry): let other requests in as they are written out.
      if (emitted - lastPause > PAUSE_EVERY_BYTES) {
        lastPause = emitted;
        await new Promise((next) => setImmediate(next));
      }
    }
    groupStart += groupRows;
    // Let other requests in between row groups.
    await new Promise((next) => setImmediate(next));
  }
  return builtLinesSource(name, lines);
}
