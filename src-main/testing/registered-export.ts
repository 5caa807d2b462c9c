// Exports as the app's doors do: through the writer the format registry holds for a format
// id. dataset/ sits below formats/ and is handed its writer; its tests reach the registered
// writers through here.
import type { DatasetExportOptions, DatasetExportSummary } from '../common/contract/dataset';
import { exportDataset, type BundleSource, type ExportRun } from '../dataset/export-dataset';
import { exportToFile, type ExportFileOptions } from '../dataset/export-file';
import { datasetFormat, exporterFor } from '../formats/registry';
import type { WorkspaceStore } from '../store/workspace-store';

export function exportAs(source: BundleSource, options: DatasetExportOptions, run?: ExportRun): Promise<DatasetExportSummary> {
  return exportDataset(source, datasetFormat(options.format), options, run);
}

export function exportFileAs(store: WorkspaceStore, path: string, format: string, trajectoryIds?: readonly string[], options?: ExportFileOptions) {
  return exportToFile(store, path, exporterFor(format), trajectoryIds, options);
}
