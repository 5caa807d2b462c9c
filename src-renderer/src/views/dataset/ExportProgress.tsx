// The running export: a progress bar, a cancel button, and what was written once done.
import type { DatasetExportSummary } from '../../../../src-main/common/contract/dataset';
import { exportSummaryLines } from '../../../../src-main/common/export-summary';
import { cancelExport, type ExportJob } from '../../state/dataset';

export function ExportProgress({ job, result }: { job: ExportJob | null; result: DatasetExportSummary | null }) {
  return (
    <div className="dataset-progress">
      {job?.running && (
        <>
          <progress aria-label="Export progress" max={job.total ?? undefined} value={job.total === null ? undefined : job.done} />
          <span className="muted">
            {job.label}
            {job.total !== null ? ` ${job.done} / ${job.total}` : ''}
          </span>
          <button type="button" onClick={() => void cancelExport()}>
            Cancel export
          </button>
        </>
      )}
      {result &&
        exportSummaryLines(result).map((line) => (
          <p key={line} className="dataset-summary">
            {line}
          </p>
        ))}
      {result && (
        <p role="status" className="dataset-result">
          Wrote {result.examples.train} train and {result.examples.validation} validation examples ({result.trajectories.train} +{' '}
          {result.trajectories.validation} trajectories) to {result.out}
          {result.removed.duplicates + result.removed.nearDuplicates > 0 &&
            `; ${result.removed.duplicates} duplicates and ${result.removed.nearDuplicates} near-duplicates removed`}
          {result.removed.overLength > 0 && `; ${result.removed.overLength} over the length limit`}
          {Object.values(result.scrubbed).some((n) => n > 0) &&
            `; scrubbed ${Object.entries(result.scrubbed)
              .map(([k, n]) => `${n} ${k}`)
              .join(', ')}`}
          . Token lengths: {result.tokenizer.exact ? `counted exactly with ${result.tokenizer.label}` : 'estimated (no model tokenizer found)'}.
        </p>
      )}
      {result?.warnings.map((warning) => (
        <p key={warning} role="alert" className="dataset-error">
          {warning}
        </p>
      ))}
    </div>
  );
}
