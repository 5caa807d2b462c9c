import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { ConfirmDialog } from './ConfirmDialog';
import { closeWorkspace, useUiStore } from '../state/workspace-actions';
import { plural } from '../../../src-main/common/plural';

/**
 * The workspace's own actions, at the toolbar's left beside its path: a new trajectory, and
 * closing the workspace, which asks first. Kept apart from the right-hand buttons, so the
 * workspace's Close is never taken for a dialog's.
 */
export function WorkspaceMenu({ onNewTrajectory }: { onNewTrajectory(): void }) {
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    // The desktop menu's Close Workspace: the same confirmation as this menu's item.
    const ask = (e: Event) => {
      e.preventDefault();
      setConfirming(true);
    };
    document.addEventListener('worldloom:close-workspace', ask);
    return () => document.removeEventListener('worldloom:close-workspace', ask);
  }, []);

  useEffect(() => {
    if (!open) return;
    // Opened, the menu takes the focus on its first item, as menus do.
    root.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const outside = (e: MouseEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, [open]);

  const choose = (then: () => void) => () => {
    setOpen(false);
    then();
  };
  return (
    <div
      className="menu"
      ref={root}
      onKeyDown={(e) => {
        if (!open) return;
        if (e.key === 'Escape') {
          e.stopPropagation();
          setOpen(false);
          button.current?.focus();
        } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
          e.preventDefault();
          const items = [...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
          const at = items.indexOf(document.activeElement as HTMLElement);
          items[(at + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
        }
      }}
    >
      <button ref={button} aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)}>
        Workspace ▾
      </button>
      {open && (
        <div className="menu-list" role="menu" aria-label="Workspace">
          <button role="menuitem" onClick={choose(onNewTrajectory)}>
            New trajectory…
          </button>
          <button role="menuitem" onClick={choose(() => setConfirming(true))}>
            Close workspace…
          </button>
          <p className="muted small">
            <WorkspaceSummary />
            <br />
            Every change is written to the workspace file as you make it.
          </p>
        </div>
      )}
      {confirming && createPortal(<ConfirmClose onDone={() => setConfirming(false)} />, document.body)}
    </div>
  );
}

/** The path and counts, which the toolbar hides when it is narrow. */
function WorkspaceSummary() {
  const workspace = useUiStore((s) => s.workspace);
  if (!workspace) return null;
  return (
    <>
      <span className="workspace-path-full">{workspace.path}</span>
      <br />
      {plural(workspace.trajectories, 'trajectory', 'trajectories')} · {plural(workspace.steps, 'step')}
    </>
  );
}

function ConfirmClose({ onDone }: { onDone(): void }) {
  const path = useUiStore((s) => s.workspace?.path ?? '');
  return (
    <ConfirmDialog overlay="confirm-close" title="Close the workspace?" confirm="Close workspace" onCancel={onDone} onConfirm={() => void closeWorkspace()}>
      <span className="workspace-path-full">{path}</span> closes and the start screen comes back. Nothing is lost: every change is already in the file.
    </ConfirmDialog>
  );
}
