import { memo } from 'react';
import type { AgreementRow, SiblingLabel } from '../../../../src-main/common/contract/siblings';
import { openSiblings } from '../../state/siblings';
import type { TreeNode } from '../../state/tree-rows';
import { agreementBadge, siblingLabelText } from '../siblings/labels';
import { actionLine, firstLine } from '../text';

/**
 * Deep trees keep their shape near the top without becoming a staircase that pushes the
 * action out of the pane: indentation stops growing here, and deeper rows say their depth.
 */
export const MAX_INDENT_LEVELS = 10;
const INDENT_PX = 14;
export const ROW_HEIGHT = 26;

interface Props {
  depth: number;
  childCount: number;
  expanded: boolean;
  node: TreeNode;
  top: number;
  selected: boolean;
  compared: 'differs' | 'same' | null;
  /** For a sample with siblings of the same action: its number, seed and perturbation. */
  siblingLabel?: SiblingLabel;
  /** For a state whose samples of one action can be compared: how much they agree. */
  agreement?: AgreementRow;
  onSelect(id: string): void;
  onToggle(id: string): void;
}

/** One line of the tree: fold control, origin badge, comparison with the real sibling, the action, marks. */
export const TreeRowView = memo(function TreeRowView({ depth, childCount, expanded, node: n, top, selected, compared, siblingLabel, agreement, onSelect, onToggle }: Props) {
  const isRoot = n.parentId === null;
  const indent = Math.min(depth, MAX_INDENT_LEVELS) * INDENT_PX;
  return (
    <div
      role="treeitem"
      aria-selected={selected}
      aria-level={depth + 1}
      aria-expanded={childCount > 0 ? expanded : undefined}
      data-node-id={n.id}
      className={`tree-row${selected ? ' selected' : ''}`}
      // The guide lines' width is set on the row itself, not as an inherited custom property, so a
      // row that shows another node restyles only itself, not each of its children.
      style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT, paddingLeft: 6 + indent, backgroundSize: `${indent}px 100%` }}
      onClick={() => onSelect(n.id)}
    >
      {depth > MAX_INDENT_LEVELS && (
        <span className="depth-mark" title={`Step ${depth}: indentation stops at ${MAX_INDENT_LEVELS} levels`}>
          {depth}
        </span>
      )}
      <span
        className="twisty"
        aria-hidden
        onClick={(e) => {
          e.stopPropagation();
          if (childCount > 0) onToggle(n.id);
        }}
      >
        {childCount > 0 ? (expanded ? '▾' : '▸') : '·'}
      </span>
      <span className={`badge origin-${n.origin}`}>{isRoot ? 'start' : n.origin}</span>
      {compared === 'differs' && (
        <span className="vs-real differs" title="The observation differs from the real sibling's">
          ≠ real
        </span>
      )}
      {compared === 'same' && (
        <span className="vs-real" title="The observation matches the real sibling's">
          = real
        </span>
      )}
      <span className="tree-text" title={!isRoot && n.label.startsWith('{') ? n.label : undefined}>
        {(isRoot ? firstLine(n.label) : actionLine(n.label)) || (isRoot ? '(initial state)' : '(no action)')}
      </span>
      {siblingLabel && (
        <span className="sibling-label" data-testid="sibling-label">
          {siblingLabelText(siblingLabel)}
        </span>
      )}
      {agreement && <AgreementBadge row={agreement} />}
      {!expanded && childCount > 0 && <span className="muted small">+{childCount}</span>}
      {n.rating !== null && <span className="rating-mark" title="rating">{n.rating}/5</span>}
      {n.tags.length > 0 && <span className="tag-mark">{n.tags.join(', ')}</span>}
      {n.starred && (
        <span className="star" aria-label="starred">
          ★
        </span>
      )}
    </div>
  );
});

/** On a parent row: how much its samples of one action agree; a click compares them. */
function AgreementBadge({ row }: { row: AgreementRow }) {
  const badge = agreementBadge(row);
  return (
    <button
      className={`agreement-badge band-${badge.band}`}
      title={badge.title}
      aria-label={`Samples agree ${badge.text.slice(1)}`}
      data-testid="agreement-badge"
      onClick={(e) => {
        e.stopPropagation();
        void openSiblings(row.parentId);
      }}
    >
      {badge.text}
    </button>
  );
}
