import { useOverlay } from '../state/overlays';
import { useUiStore } from '../state/workspace-actions';
import { setHelpOpen } from '../state/view-actions';
import { SHORTCUT_PLACES, SHORTCUTS, type ShortcutPlace } from './shortcuts';

const PLACES = Object.keys(SHORTCUT_PLACES) as ShortcutPlace[];

/** Every keyboard shortcut, from the same table the keys are dispatched from. */
export function HelpOverlay() {
  const open = useUiStore((s) => s.helpOpen);
  useOverlay('help', open, () => setHelpOpen(false));
  if (!open) return null;
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" onClick={() => setHelpOpen(false)}>
      <div className="overlay-card" onClick={(e) => e.stopPropagation()}>
        <div className="notice-head">
          <h2>Keyboard shortcuts</h2>
          <button className="link" aria-label="Close" onClick={() => setHelpOpen(false)}>
            ×
          </button>
        </div>
        <table className="shortcuts">
          {PLACES.map((place) => (
            <tbody key={place}>
              <tr>
                <th colSpan={2}>{SHORTCUT_PLACES[place]}</th>
              </tr>
              {SHORTCUTS.filter((s) => (s.place ?? 'studio') === place).map((s) => (
                <tr key={`${s.keys} ${s.what}`}>
                  <td>
                    <kbd>{s.keys}</kbd>
                  </td>
                  <td>{s.what}</td>
                </tr>
              ))}
            </tbody>
          ))}
        </table>
        <p className="muted small">Every change is written to the workspace file at once; there is nothing to save. Ctrl+Z takes back any change, deletions included (kept in the workspace, so even after a reload).</p>
      </div>
    </div>
  );
}
