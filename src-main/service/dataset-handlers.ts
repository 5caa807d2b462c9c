// Handlers for the dataset part of the contract (contract/dataset.ts): preview a
// selection, export it as a job with progress and cancel.
import type { datasetApi } from '../common/contract/dataset';
import { DatasetExportError, ExportCancelledError, exportDataset, previewDataset } from '../dataset/export-dataset';
import { FilterError } from '../dataset/filter-expression';
import { datasetFormat } from '../formats/registry';
import { approximateTokenCounter, modelTokenCounter, tokenizerFolderCounter, type TokenCounter } from '../dataset/hygiene/token-length';
import { defaultModelPath } from '../simulation/model-session';
import type { HandlersOf, Studio } from './studio';
import { UserError } from '../common/user-error';
import { rmSync } from 'node:fs';
import { safeFileName } from './downloads';
import { zipFolder } from './zip-folder';

/**
 * Exact counts: the tokenizer folder the user named, else the loaded model's own tokenizer
 * when it runs in-process, else the embedded model's. The labelled estimate only when none
 * is there (an HTTP engine would cost one request per example, for a count).
 */
function tokenCounterFor(studio: Studio, tokenizerDir: string | undefined): TokenCounter {
  if (tokenizerDir) return tokenizerFolderCounter(tokenizerDir);
  const engine = studio.models.current;
  const described = engine?.describe();
  if (engine && described && described.kind !== 'openai') return modelTokenCounter(described.modelId, (text) => engine.tokenize(text));
  const embedded = defaultModelPath(studio.extras.resourcesDir);
  return embedded ? tokenizerFolderCounter(embedded, "the embedded model's tokenizer (worldloom-nano, Qwen3.5 vocabulary)") : approximateTokenCounter;
}

/** How a filter error starts, so the CLI can name its --filter option instead. */
export const FILTER_ERROR_PREFIX = 'The filter does not read: ';

function asUserError(err: unknown): unknown {
  if (err instanceof FilterError) return new UserError(`${FILTER_ERROR_PREFIX}${err.message}`, 'invalid-filter');
  if (err instanceof ExportCancelledError) return new UserError(err.message, 'cancelled');
  if (err instanceof DatasetExportError) return new UserError(err.message, 'invalid-export');
  return err;
}

export function datasetHandlers(studio: Studio): HandlersOf<typeof datasetApi> {
  return {
    'dataset.preview': ({ selection, examples, limit }) => previewDataset(studio.requireStore(), selection, examples, limit),
    'dataset.export': async (input) => {
      const store = studio.requireStore();
      try {
        const tokenCounter = tokenCounterFor(studio, input.tokenizer);
        if (!input.download) {
          return await studio.jobs.start(
            'export',
            'Exporting the dataset',
            ({ signal, progress }) => exportDataset(store, datasetFormat(input.format), input, { signal, onProgress: (p) => progress(p.done, p.total, p.label), tokenCounter }),
            input.jobId,
          );
        }
        // For a browser: written into a private folder, then offered once as one .zip; nothing lands in the server's working directory.
        const name = safeFileName(input.out).replace(/\.zip$/i, '');
        const folder = studio.downloads.pathFor(name);
        return await studio.jobs.start(
          'export',
          'Exporting the dataset',
          async ({ signal, progress }) => {
            try {
              const summary = await exportDataset(store, datasetFormat(input.format), { ...input, out: folder, overwrite: false }, { signal, onProgress: (p) => progress(p.done, p.total, p.label), tokenCounter });
              progress(1, 1, 'Packing the dataset into one .zip');
              await zipFolder(folder, `${folder}.zip`, name);
              return { ...summary, out: `${name}.zip`, downloadId: studio.downloads.offer(`${folder}.zip`, `${name}.zip`, 'application/zip') };
            } finally {
              rmSync(folder, { recursive: true, force: true });
            }
          },
          input.jobId,
        );
      } catch (err) {
        throw asUserError(err);
      }
    },
  };
}
