import { memo } from 'react';
import { selectNode } from '../../state/workspace-actions';
import { ancestry, type TreeIndex } from '../../state/tree-rows';
import { actionLine } from '../text';

/** Deep paths show their start and their last steps; the middle folds into one button. */
const SHOWN_AT_END = 8;

/** The path from the initial state to the selected node; each step jumps there. */
/** Memoized: scrolling the tree re-renders the tree view but never changes the path. */
export const Breadcrumb = memo(function Breadcrumb({ tree, selectedId }: { tree: TreeIndex; selectedId: string | null }) {
  const path = selectedId ? ancestry(tree, selectedId) : [];
  const hidden = path.length > SHOWN_AT_END + 1 ? path.slice(1, path.length - SHOWN_AT_END) : [];
  const shown = hidden.length ? [path[0]!, ...path.slice(path.length - SHOWN_AT_END)] : path;
  return (
    <nav className="breadcrumb" aria-label="Path">
      {shown.map((n, i) => (
        <span key={n.id} className="crumb">
          {i === 1 && hidden.length > 0 && (
            <button className="link" title={`${hidden.length} more steps`} onClick={() => selectNode(hidden.at(-1)!.id)}>
              …
            </button>
          )}
          <button className="link" aria-current={n.id === selectedId ? 'step' : undefined} onClick={() => selectNode(n.id)}>
            {n.parentId === null ? 'start' : `${n.depth}. ${actionLine(n.label, 24)}`}
          </button>
        </span>
      ))}
    </nav>
  );
});
