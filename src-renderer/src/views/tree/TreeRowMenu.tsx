import { memo, type MouseEvent, useEffect, useRef, useSyncExternalStore } from 'react';
import { deleteNode } from '../../state/cleanup-actions';
import { startEditing } from '../../state/curation-actions';
import { resamplePath } from '../../state/simulation';
import { selectNode, useUiStore } from '../../state/workspace-actions';
import { copyText } from '../inspector/CopyableId';

/** Where the menu is open, if it is: one menu for the whole tree. */
let opened: { nodeId: string; x: number; y: number } | null = null;
const listeners = new Set<() => void>();
const setOpened = (next: typeof opened) => {
  opened = next;
  listeners.forEach((l) => l());
};

/** The tree's contextmenu handler: opens the menu for the row under the pointer, selecting it. */
export function openTreeRowMenu(e: MouseEvent): void {
  const row = (e.target as HTMLElement).closest<HTMLElement>('[data-node-id]');
  const nodeId = row?.dataset.nodeId;
  if (!nodeId) return;
  e.preventDefault();
  selectNode(nodeId);
  setOpened({ nodeId, x: e.clientX, y: e.clientY });
}

/** A row's actions on right-click: delete (with what follows), copy its id, edit its state. Memoized: the tree's scroll re-renders skip it. */
export const TreeRowMenu = memo(function TreeRowMenu() {
  const menu = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => opened,
  );
  const isRoot = useUiStore((s) => (menu ? s.tree?.byId.get(menu.nodeId)?.parentId === null : false));
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!menu) return;
    ref.current?.querySelector('button')?.focus();
    const close = (e: Event) => {
      if (!ref.current?.contains(e.target as Node)) setOpened(null);
    };
    window.addEventListener('pointerdown', close, true);
    return () => window.removeEventListener('pointerdown', close, true);
  }, [menu]);
  if (!menu) return null;
  const act = (work: () => unknown) => () => {
    setOpened(null);
    void work();
  };
  return (
    <div
      ref={ref}
      role="menu"
      aria-label="Node actions"
      className="tree-row-menu"
      style={{ position: 'fixed', left: menu.x, top: menu.y }}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          setOpened(null);
        }
      }}
    >
      <button role="menuitem" onClick={act(() => deleteNode(menu.nodeId))}>
        {isRoot ? 'Delete trajectory' : 'Delete with what follows'} <kbd>Del</kbd>
      </button>
      <button role="menuitem" onClick={act(() => copyText(menu.nodeId, 'node id'))}>
        Copy node id
      </button>
      {!isRoot && (
        <button role="menuitem" onClick={act(() => startEditing(menu.nodeId))}>
          Edit state <kbd>e</kbd>
        </button>
      )}
      {!isRoot && (
        <button role="menuitem" onClick={act(() => resamplePath(menu.nodeId))} title="Every simulated step of this path simulated again at once, each from its own parent">
          Resample the path's simulated steps
        </button>
      )}
    </div>
  );
});
