// The live count of the selection and its first examples, as the trainer will see them.
import type { DatasetPreview } from '../../../../src-main/common/contract/dataset';
import { plural } from '../../../../src-main/common/plural';
import { compositionText, unreviewedLine } from '../../../../src-main/common/export-summary';

export function ExamplePreview({ preview }: { preview: DatasetPreview | null }) {
  if (!preview) return <p className="muted">Counting…</p>;
  return (
    <section className="dataset-preview" aria-label="Example preview">
      <p data-testid="dataset-count" aria-live="polite">
        {preview.filterError ? 'No examples: the filter does not read.' : `${plural(preview.examples, 'example')} from ${plural(preview.trajectories, 'trajectory', 'trajectories')}`}
        {!preview.filterError && preview.composition && preview.examples > 0 && `: ${compositionText(preview.composition)}`}
      </p>
      {/* Said before exporting, not only in the summary after it: what the model wrote and nobody looked at. */}
      {!preview.filterError && (preview.composition?.simulatedUnreviewed ?? 0) > 0 && (
        <p className="dataset-summary" data-testid="dataset-unreviewed">
          {unreviewedLine(preview.composition!.simulatedUnreviewed)}
        </p>
      )}
      {preview.first.map((example) => (
        <details key={example.id} className="dataset-example">
          <summary>
            {example.title} · {example.messages.length} messages
          </summary>
          {example.messages.map((m, i) => (
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
