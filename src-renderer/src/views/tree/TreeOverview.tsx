import { useDeferredValue, useEffect, useMemo, useRef, useState, type PointerEvent } from 'react';
import type { Origin } from '../../../../src-main/common/trajectory/model';
import { placeOfRow, type TreeNode, type TreeOrder, type TreeRows } from '../../state/tree-rows';

const WIDTH = 56;
const MARK = 14;

/** Origin colours as little-endian RGBA words for an ImageData buffer (alpha in the top byte). */
const COLOUR: Record<Origin, number> = {
  real: 0xff8dd35f,
  simulated: 0xffffa86a,
  edited: 0xff66c8ff,
  perturbed: 0xffd18cff,
  imported: 0xffa1938b,
  manual: 0xffffa0c8,
  agent: 0xff7ae0b8,
};
const STARRED = 0xff66d1ff;

interface Props {
  rows: TreeRows;
  byId: ReadonlyMap<string, TreeNode>;
  revision: number;
  /** The part of the rows on screen, as fractions of all rows. */
  view: { start: number; size: number };
  onJump(fraction: number): void;
}

/**
 * The whole tree at a glance: one pixel line per slice of rows, depth as indent, origin as
 * colour, stars at the right edge. Click or drag to move the tree there. Drawing costs one
 * pass over the pixel lines (not the rows), so folding a 100,000-node tree redraws it in
 * well under a millisecond; scrolling only moves the viewport box.
 */
export function TreeOverview({ rows: shownRows, byId, revision, view, onJump }: Props) {
  // The picture follows a fold a moment later, so the frame that folds draws only the rows.
  const rows = useDeferredValue(shownRows);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [height, setHeight] = useState(0);
  // Colours per node, looked up once per change of marks, so folding redraws from numbers only.
  const colours = useMemo(() => nodeColours(rows.order, byId, revision), [rows.order, byId, revision]);

  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const resize = new ResizeObserver(([entry]) => setHeight(Math.floor(entry!.contentRect.height)));
    resize.observe(c.parentElement!);
    return () => resize.disconnect();
  }, []);

  useEffect(() => {
    const c = canvas.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx || height === 0) return;
    if (c.height !== height) c.height = height;
    c.width = WIDTH;
    const image = ctx.createImageData(WIDTH, height);
    const pixels = new Uint32Array(image.data.buffer);
    const n = rows.count;
    // Each pixel line shows the first row of its slice; a short tree gets a band per row.
    const lines = Math.min(height, n * Math.max(1, Math.min(4, Math.floor(height / Math.max(1, n)))));
    for (let y = 0; y < lines; y++) {
      const p = placeOfRow(rows, Math.floor((y * n) / lines));
      const x0 = Math.min(rows.order.depth[p]!, 20) * 2;
      const line = y * WIDTH;
      pixels.fill(colours.origin[p]!, line + x0, line + Math.min(x0 + MARK, WIDTH - 4));
      if (colours.starred[p]) pixels.fill(STARRED, line + WIDTH - 4, line + WIDTH);
    }
    ctx.putImageData(image, 0, 0);
  }, [rows, colours, height]);

  const jump = (e: PointerEvent<HTMLDivElement>) => {
    if (e.type === 'pointermove' && e.buttons !== 1) return;
    const rect = e.currentTarget.getBoundingClientRect();
    onJump(Math.max(0, Math.min(1, (e.clientY - rect.top) / rect.height)));
  };

  return (
    <div className="tree-overview" aria-label="Overview of the whole tree" title="Overview: click or drag to move through the tree" onPointerDown={jump} onPointerMove={jump}>
      <canvas ref={canvas} />
      <div className="overview-viewport" style={{ top: `${view.start * 100}%`, height: `${Math.max(0.2, view.size * 100)}%` }} />
    </div>
  );
}

function nodeColours(order: TreeOrder, byId: ReadonlyMap<string, TreeNode>, _revision: number) {
  const origin = new Uint32Array(order.ids.length);
  const starred = new Uint8Array(order.ids.length);
  order.ids.forEach((id, p) => {
    const node = byId.get(id);
    if (!node) return;
    origin[p] = COLOUR[node.origin];
    starred[p] = node.starred ? 1 : 0;
  });
  return { origin, starred };
}
