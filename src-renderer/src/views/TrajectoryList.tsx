import { useState } from 'react';
import type { TrajectorySummary } from '../../../src-main/common/trajectory/model';
import { askToDeleteTrajectory, renameTrajectory } from '../state/cleanup-actions';
import { selectTrajectory, useUiStore } from '../state/workspace-actions';
import { CopyableId } from './inspector/CopyableId';
import { plural } from '../../../src-main/common/plural';

/** Renames in place: Enter saves (the old title is kept as a version, Ctrl+Z puts it back), Esc keeps the old one. */
function RenameField({ trajectory, done }: { trajectory: TrajectorySummary; done: () => void }) {
  const [title, setTitle] = useState(trajectory.title);
  return (
    <form
      className="rename"
      onSubmit={(e) => {
        e.preventDefault();
        void renameTrajectory(trajectory.id, title).then((saved) => saved && done());
      }}
    >
      <input
        aria-label="Trajectory title"
        value={title}
        autoFocus
        maxLength={500}
        onChange={(e) => setTitle(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            done();
          }
        }}
      />
    </form>
  );
}

/** Asks the studio to open its New trajectory form (from the list, the empty tree pane or the Workspace menu). */
export const NEW_TRAJECTORY_EVENT = 'worldloom:new-trajectory';

function NewTrajectoryButton() {
  return (
    <button type="button" className="link small pad" onClick={() => document.dispatchEvent(new Event(NEW_TRAJECTORY_EVENT))}>
      + New trajectory…
    </button>
  );
}

export function TrajectoryList() {
  const trajectories = useUiStore((s) => s.trajectories);
  const current = useUiStore((s) => s.trajectory?.id);
  const [renaming, setRenaming] = useState<string | null>(null);
  if (trajectories.length === 0)
    return (
      <>
        <p className="muted pad">No trajectories yet.</p>
        <NewTrajectoryButton />
      </>
    );
  return (
    <>
      <NewTrajectoryButton />
      <ul className="trajectory-list" aria-label="Trajectories">
        {trajectories.map((t) => (
          <li key={t.id}>
            {renaming === t.id ? (
              <RenameField trajectory={t} done={() => setRenaming(null)} />
            ) : (
              <button className={`trajectory-item${t.id === current ? ' selected' : ''}`} onClick={() => void selectTrajectory(t.id)} onDoubleClick={() => setRenaming(t.id)}>
                <span className="title">{t.title}</span>
                <span className="meta">
                  <span className={`domain domain-${t.domain}`}>{t.domain}</span> {plural(t.steps, 'step')}
                </span>
              </button>
            )}
            {t.id === current && renaming !== t.id && (
              <div className="trajectory-actions">
                <CopyableId id={t.id} what="trajectory id" testId="trajectory-id" />
                <button type="button" className="link small" onClick={() => setRenaming(t.id)}>
                  Rename
                </button>
                <button type="button" className="link small danger" title="Delete the trajectory (asks first; Ctrl+Z brings it back)" onClick={() => askToDeleteTrajectory(t)}>
                  Delete…
                </button>
              </div>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
