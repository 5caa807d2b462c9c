import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type UIEvent } from 'react';
import { flushSync } from 'react-dom';
import { selectNode, setCollapsed, toggleCollapsed, useUiStore } from '../state/workspace-actions';
import { allParents, comparedWithReal, rowAt, rowIndexOf, treeOrder, visibleRows } from '../state/tree-rows';
import { changeLayout } from '../state/view-actions';
import { useSiblings } from '../state/siblings';
import { AgreementBar } from './siblings/AgreementBar';
import { Breadcrumb } from './tree/Breadcrumb';
import { TreeOverview } from './tree/TreeOverview';
import { ROW_HEIGHT, TreeRowView } from './tree/TreeRowView';
import { openTreeRowMenu, TreeRowMenu } from './tree/TreeRowMenu';
import './tree/tree.css';

/** Rows drawn beyond each edge of the viewport, so a small scroll shows drawn rows at once. */
const OVERSCAN = 2;

/** The scroll offset that shows row `index` whole, moving as little as possible. */
function keepInView(top: number, height: number, index: number): number {
  const rowTop = index * ROW_HEIGHT;
  if (rowTop < top) return rowTop;
  if (rowTop + ROW_HEIGHT > top + height) return rowTop + ROW_HEIGHT - height;
  return top;
}

/**
 * The trajectory as a virtualized tree: only the rows on screen exist in the page, the
 * flattened row list is rebuilt only when the tree's shape or folding changes, and a
 * keypress costs a map lookup, so 100,000 nodes stay fluent. Rows have one fixed height, so
 * the window of rows follows from the scroll offset alone: nothing is measured, and the
 * layout is never read back while rendering.
 */
export function TreeView() {
  const tree = useUiStore((s) => s.tree)!;
  const collapsed = useUiStore((s) => s.collapsed);
  const selectedId = useUiStore((s) => s.selectedNodeId);
  const showOverview = useUiStore((s) => s.layout.overview);
  // What tells sibling samples apart, and how much each state's samples agree (badges).
  const siblingLabels = useSiblings((s) => s.labels);
  const agreementOf = useSiblings((s) => s.byParent);
  const { shape, byId } = tree;
  // byId changes in place for marks; only a new shape (nodes added or removed) re-walks the tree.
  const order = useMemo(() => treeOrder(shape, byId), [shape, byId]);
  const rows = useMemo(() => visibleRows(order, collapsed), [order, collapsed]);
  const selectedIndex = selectedId ? rowIndexOf(rows, selectedId) : -1;
  const scroller = useRef<HTMLDivElement>(null);
  /** For the resize observer, which outlives renders. */
  const selectedIndexNow = useRef(selectedIndex);
  useEffect(() => {
    selectedIndexNow.current = selectedIndex;
  });
  /** The scroll offset the page has, as last set or reported: compared instead of read back. */
  const pageTop = useRef(0);
  // The offset and height the rows are drawn for, kept from scroll and resize events.
  const [viewport, setViewport] = useState({ top: 0, height: 0 });
  // A newly selected row (a key, a search jump, a fold above it) is scrolled into view once.
  const [followed, setFollowed] = useState(-1);
  if (selectedIndex !== followed && viewport.height > 0) {
    setFollowed(selectedIndex);
    const top = selectedIndex >= 0 ? keepInView(viewport.top, viewport.height, selectedIndex) : viewport.top;
    if (top !== viewport.top) setViewport({ ...viewport, top });
  }

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && pageTop.current !== viewport.top) {
      pageTop.current = viewport.top;
      el.scrollTop = viewport.top;
    }
  });

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // Called before the frame is painted, so a new height shows its rows in the same frame.
    const resize = new ResizeObserver(([entry]) => {
      const height = Math.floor(entry!.contentRect.height);
      flushSync(() =>
        setViewport((v) => {
          if (v.height === height) return v;
          // A pane that shrinks (a notice strip below it, a sheet above) keeps the selected row in view if it was.
          const i = selectedIndexNow.current;
          const shown = i >= 0 && i * ROW_HEIGHT >= v.top && (i + 1) * ROW_HEIGHT <= v.top + v.height;
          return { top: shown ? keepInView(v.top, height, i) : v.top, height };
        }),
      );
    });
    resize.observe(el);
    return () => resize.disconnect();
  }, []);

  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const top = e.currentTarget.scrollTop;
    pageTop.current = top;
    if (top === viewport.top) return;
    const next = { ...viewport, top };
    // A new row at an edge is drawn before this frame paints; within a row nothing moves.
    if (Math.floor(top / ROW_HEIGHT) !== Math.floor(viewport.top / ROW_HEIGHT)) flushSync(() => setViewport(next));
    else setViewport(next);
  };

  // Folding can leave the offset past the end until the page reports the clamped one.
  const top = Math.min(viewport.top, Math.max(0, rows.count * ROW_HEIGHT - viewport.height));
  const firstShown = Math.floor(top / ROW_HEIGHT);
  const shownCount = Math.ceil(viewport.height / ROW_HEIGHT);
  const first = Math.max(0, firstShown - OVERSCAN);
  const last = Math.min(rows.count, firstShown + shownCount + 1 + OVERSCAN);
  // Rows keep their element while they stay on screen; a row scrolled in reuses the element of one scrolled out.
  const slots = shownCount + 2 * OVERSCAN + 2;
  const view = {
    start: rows.count ? Math.min(firstShown, rows.count) / rows.count : 0,
    size: rows.count ? Math.min(shownCount, rows.count) / rows.count : 1,
  };
  const jumpTo = useCallback(
    (fraction: number) => {
      const el = scroller.current;
      if (el) el.scrollTop = Math.max(0, Math.floor(fraction * rows.count) * ROW_HEIGHT - viewport.height / 2);
    },
    [rows.count, viewport.height],
  );

  // For the tree benchmark: the first frame painted with this tree's rows.
  const hasRows = viewport.height > 0;
  useLayoutEffect(() => {
    if (hasRows) requestAnimationFrame(() => performance.mark('worldloom:tree-painted'));
  }, [shape, hasRows]);

  const onToggle = useCallback((id: string) => toggleCollapsed(id), []);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const row = rowAt(rows, selectedIndex);
    const page = Math.max(1, Math.floor(viewport.height / ROW_HEIGHT) - 1);
    const move = (i: number) => {
      const target = rowAt(rows, Math.max(0, Math.min(rows.count - 1, i)));
      if (target) selectNode(target.id);
    };
    const parentOf = (id: string) => byId.get(id)?.parentId;
    switch (e.key) {
      case 'ArrowDown':
      case 'j':
        move(selectedIndex + 1);
        break;
      case 'ArrowUp':
      case 'k':
        move(selectedIndex - 1);
        break;
      case 'PageDown':
        move(selectedIndex + page);
        break;
      case 'PageUp':
        move(selectedIndex - page);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(rows.count - 1);
        break;
      case 'ArrowRight':
      case 'l':
        if (row && row.childCount > 0 && !row.expanded) toggleCollapsed(row.id, false);
        else if (row && row.childCount > 0) move(selectedIndex + 1);
        break;
      case 'ArrowLeft':
      case 'h':
        if (row && row.childCount > 0 && row.expanded) toggleCollapsed(row.id, true);
        else if (row && parentOf(row.id)) selectNode(parentOf(row.id)!);
        break;
      case 'Enter':
        if (row && row.childCount > 0) toggleCollapsed(row.id);
        break;
      case 'Backspace':
        if (row && parentOf(row.id)) selectNode(parentOf(row.id)!);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  return (
    <div className="tree">
      <div className="tree-head">
        <Breadcrumb tree={tree} selectedId={selectedId} />
        <span className="spacer" />
        <span className="muted small" data-testid="tree-count">
          {rows.count.toLocaleString()} of {byId.size.toLocaleString()} shown
        </span>
        <button className="small-button" onClick={() => setCollapsed(new Set())} title="Unfold every node">
          Expand all
        </button>
        <button className="small-button" onClick={() => setCollapsed(allParents(tree))} title="Fold every node">
          Fold all
        </button>
        <button className="small-button" aria-pressed={showOverview} onClick={() => changeLayout({ overview: !showOverview })}>
          Overview
        </button>
        <AgreementBar />
      </div>
      <div className="tree-body">
        <TreeRowMenu />
        <div className="tree-scroll" ref={scroller} tabIndex={0} role="tree" aria-label="Trajectory tree" onKeyDown={onKeyDown} onScroll={onScroll} onContextMenu={openTreeRowMenu}>
          <div style={{ height: rows.count * ROW_HEIGHT, position: 'relative' }}>
            {Array.from({ length: Math.max(0, last - first) }, (_, i) => {
              const r = first + i;
              const row = rowAt(rows, r)!;
              const node = byId.get(row.id)!;
              return (
                <TreeRowView
                  key={r % slots}
                  depth={row.depth}
                  childCount={row.childCount}
                  expanded={row.expanded}
                  node={node}
                  top={r * ROW_HEIGHT}
                  selected={row.id === selectedId}
                  compared={comparedWithReal(tree, node)}
                  siblingLabel={siblingLabels.get(node.id)}
                  agreement={agreementOf.get(node.id)}
                  onSelect={selectNode}
                  onToggle={onToggle}
                />
              );
            })}
          </div>
        </div>
        {showOverview && <TreeOverview rows={rows} byId={byId} revision={tree.revision} view={view} onJump={jumpTo} />}
      </div>
    </div>
  );
}
