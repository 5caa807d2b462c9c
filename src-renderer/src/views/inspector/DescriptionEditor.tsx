import { useState } from 'react';
import type { TrajectoryVersion } from '../../../../src-main/common/contract/curation';
import type { TrajectoryRecord } from '../../../../src-main/common/trajectory/model';
import { readVersions, restoreVersion, reviseDescription } from '../../state/cleanup-actions';

/**
 * The environment description (the world model's system prompt) of a trajectory, editable:
 * a save makes a new version and keeps the old one, which the list below can put back.
 */
export function DescriptionEditor({ trajectory }: { trajectory: TrajectoryRecord }) {
  const [draft, setDraft] = useState<string | null>(null);
  const [versions, setVersions] = useState<TrajectoryVersion[] | null>(null);
  const loadVersions = async () => setVersions(await readVersions(trajectory.id));
  if (draft !== null) {
    return (
      <form
        className="description-editor"
        aria-label="Edit the environment description"
        onSubmit={(e) => {
          e.preventDefault();
          void reviseDescription(trajectory.id, draft).then((saved) => saved && setDraft(null));
        }}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            setDraft(null);
          }
        }}
      >
        <label>
          Environment description
          <textarea value={draft} rows={8} spellCheck={false} autoFocus onChange={(e) => setDraft(e.target.value)} />
        </label>
        <div className="row">
          <button type="submit" disabled={draft === trajectory.systemPrompt}>
            Save as a new version
          </button>
          <button type="button" onClick={() => setDraft(null)}>
            Cancel
          </button>
          <span className="muted small">The current description is kept; steps simulated before keep the prompt they were made with.</span>
        </div>
      </form>
    );
  }
  return (
    <div className="description-actions row">
      <button type="button" className="small" onClick={() => setDraft(trajectory.systemPrompt)}>
        Edit description
      </button>
      <details onToggle={(e) => (e.currentTarget.open ? void loadVersions() : undefined)}>
        <summary>Earlier versions</summary>
        {versions === null ? (
          <p className="muted small">Reading…</p>
        ) : versions.length === 0 ? (
          <p className="muted small">None: the title, description and world specification have not changed.</p>
        ) : (
          <ul className="versions" aria-label="Earlier versions">
            {versions.map((v) => (
              <li key={v.version}>
                <span>
                  v{v.version} · {v.title} · replaced {new Date(v.replacedAt).toLocaleString()}
                </span>
                <button type="button" className="link small" onClick={() => void restoreVersion(trajectory.id, v.version).then(loadVersions)}>
                  Restore
                </button>
                <pre className="text small">{v.systemPrompt || '(no description)'}</pre>
              </li>
            ))}
          </ul>
        )}
      </details>
    </div>
  );
}
