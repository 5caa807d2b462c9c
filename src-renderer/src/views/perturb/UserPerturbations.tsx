import type { Domain } from '../../../../src-main/common/trajectory/model';
import { editUserFile, openUserFile, saveUserFile, usePerturbation } from '../../state/perturbation';
import { useUiStore } from '../../state/workspace-actions';

/** The workspace's own perturbation kinds (JSON; the format is in src-main/common/perturbations/README.md). */
export function UserPerturbations({ domain }: { domain: Domain }) {
  const workspace = useUiStore((s) => s.workspace?.path ?? null);
  const stored = usePerturbation((s) => s.userFile);
  // A draft read from another workspace is not this one's file.
  const draft = stored && stored.workspace === workspace ? stored : null;
  const report = draft?.report ?? null;
  return (
    <details
      className="user-perturbations"
      onToggle={(e) => {
        if ((e.target as HTMLDetailsElement).open && workspace) void openUserFile(workspace);
      }}
    >
      <summary>Workspace perturbations (your own kinds)</summary>
      <textarea
        aria-label="Workspace perturbation file"
        value={draft?.text ?? ''}
        onChange={(e) => editUserFile(e.target.value)}
        rows={8}
        spellCheck={false}
        placeholder='{"version": 1, "perturbations": [...]}'
      />
      <button type="button" disabled={draft === null} onClick={() => void saveUserFile(domain)}>
        Save perturbation file
      </button>
      {report && (
        <div className={report.ok ? 'muted' : 'error'} role={report.ok ? 'status' : 'alert'}>
          {report.ok ? report.message : 'Not saved: fix these and save again.'}
          {report.problems.length > 0 && (
            <ul>
              {report.problems.map((p, i) => (
                <li key={i}>
                  {p.path}: {p.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </details>
  );
}
