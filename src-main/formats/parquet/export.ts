// Parquet for Hugging Face `datasets` and the hub viewer: `data/<split>-00000-of-00001.parquet`
// with a `messages` column of list<struct<role, content[, reasoning_content]>> and plain
// string columns for provenance. Every column has one type in every row (lists become
// JSON strings) so Arrow never meets a type change between row groups. Rows are written
// in batches, so memory stays flat however large the export.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { fileWriter, ParquetWriter, type SchemaElement } from 'hyparquet-writer';
import type { DatasetExample, ExampleMessage, Split } from '../../dataset/example';
import { SPLITS } from '../../dataset/example';
import { ParquetRowSchema } from '../../dataset/writing/framework-schemas';
import type { DatasetFormatSpec, WriteContext } from '../../dataset/writing/dataset-format';

const BATCH_ROWS = 10_000;
const fileName = (split: Split) => `data/${split}-00000-of-00001.parquet`;

const text = (name: string): SchemaElement => ({ name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' });
const STRING_COLUMNS = ['id', 'trajectory_id', 'title', 'domain', 'origin', 'perturbations', 'created_at'] as const;

export function parquetSchema(reasoning: boolean): SchemaElement[] {
  const fields = reasoning ? [text('role'), text('content'), text('reasoning_content')] : [text('role'), text('content')];
  return [
    { name: 'schema', num_children: 1 + STRING_COLUMNS.length },
    // The three-level LIST layout Arrow and `datasets` read as a list of structs.
    { name: 'messages', repetition_type: 'REQUIRED', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', repetition_type: 'REQUIRED', num_children: fields.length },
    ...fields,
    ...STRING_COLUMNS.map(text),
  ];
}

class SplitFile {
  private readonly writer: ParquetWriter;
  private rows: DatasetExample[] = [];

  constructor(
    path: string,
    private readonly context: WriteContext,
  ) {
    this.writer = new ParquetWriter({ writer: fileWriter(path), schema: parquetSchema(context.reasoning), createdBy: 'Worldloom' });
  }

  add(example: DatasetExample): void | Promise<void> {
    this.rows.push(example);
    if (this.rows.length >= BATCH_ROWS) return this.flush();
  }

  async flush(): Promise<void> {
    if (this.rows.length === 0) return;
    const rows = this.rows;
    this.rows = [];
    const { reasoning } = this.context;
    await this.writer.write({
      rowGroupSize: BATCH_ROWS,
      columnData: [
        {
          name: 'messages',
          data: rows.map((s) =>
            s.messages.map((m) => {
              // One struct type for every row: tool results are the next user turn, a tool call its action text.
              const role = m.role === 'tool' ? 'user' : m.role;
              return reasoning ? { role, content: m.content, reasoning_content: m.reasoning ?? '' } : { role, content: m.content };
            }),
          ),
        },
        { name: 'id', data: rows.map((s) => s.id) },
        { name: 'trajectory_id', data: rows.map((s) => s.trajectoryId) },
        { name: 'title', data: rows.map((s) => s.title) },
        { name: 'domain', data: rows.map((s) => s.domain) },
        { name: 'origin', data: rows.map((s) => s.origin) },
        { name: 'perturbations', data: rows.map((s) => JSON.stringify(s.perturbations)) },
        { name: 'created_at', data: rows.map((s) => s.createdAt) },
      ],
    });
  }

  async close(): Promise<void> {
    await this.flush();
    await this.writer.finish();
  }
}

export const parquetFormat: DatasetFormatSpec = {
  id: 'parquet',
  label: 'Parquet + dataset card (Hugging Face datasets)',
  refuses(options) {
    return options.builder === 'preference' ? 'Parquet holds one conversation per row: export preference pairs as preference (TRL) or sharegpt (LLaMA-Factory ranking).' : null;
  },
  howToLoad() {
    return ['```python', 'from datasets import load_dataset', 'ds = load_dataset("path/to/this/folder")  # or the hub repository it is pushed to', '```'].join('\n');
  },
  dataFiles: (split) => [`data/${split}-*.parquet`],
  open(dir, context) {
    const files = new Map<Split, SplitFile>();
    mkdirSync(join(dir, 'data'), { recursive: true });
    return {
      write(example, split) {
        let file = files.get(split);
        if (!file) files.set(split, (file = new SplitFile(join(dir, fileName(split)), context)));
        return file.add(example);
      },
      async finish() {
        for (const file of files.values()) await file.close();
        return [...files.keys()].map(fileName);
      },
    };
  },
  async read(dir) {
    const out = [];
    for (const split of SPLITS) {
      const path = join(dir, fileName(split));
      if (!existsSync(path)) continue;
      const rows = await parquetReadObjects({ file: await asyncBufferFromFile(path) });
      for (const raw of rows) {
        const row = ParquetRowSchema.parse(raw);
        const messages: ExampleMessage[] = row.messages.map((m) =>
          m.reasoning_content ? { role: m.role, content: m.content, reasoning: m.reasoning_content } : { role: m.role, content: m.content },
        );
        out.push({ split, id: row.id, messages });
      }
    }
    return out;
  },
};
