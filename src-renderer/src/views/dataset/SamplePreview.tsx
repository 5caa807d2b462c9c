// The live count of the selection and its first samples, as the trainer will see them.
import type { DatasetPreview } from '../../../../src-main/common/contract/dataset';
import { plural } from '../../../../src-main/common/plural';

export function SamplePreview({ preview }: { preview: DatasetPreview | null }) {
  if (!preview) return <p className="muted">Counting…</p>;
  return (
    <section className="dataset-preview" aria-label="Sample preview">
      <p data-testid="dataset-count" aria-live="polite">
        {preview.filterError ? 'No samples: the filter does not read.' : `${plural(preview.samples, 'sample')} from ${plural(preview.trajectories, 'trajectory', 'trajectories')}`}
      </p>
      {preview.first.map((sample) => (
        <details key={sample.id} className="dataset-sample">
          <summary>
            {sample.title} · {sample.messages.length} messages
          </summary>
          {sample.messages.map((m, i) => (
            <div key={i} className={`dataset-message dataset-${m.role}`}>
              <span className="dataset-role">{m.role}</span>
              {m.reasoning && <pre className="dataset-reasoning">{m.reasoning}</pre>}
              <pre>{m.content}</pre>
            </div>
          ))}
        </details>
      ))}
    </section>
  );
}
