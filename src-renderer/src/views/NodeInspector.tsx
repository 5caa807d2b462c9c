import { lazy, memo, Suspense, useEffect, useRef, useState } from 'react';
import type { NodeRecord, TrajectoryRecord } from '../../../src-main/common/trajectory/model';
import { nodeRecord, retryNode, useNodeError, useNodeRecord } from '../state/node-records';
import { useUiStore } from '../state/workspace-actions';
import { AddStepForm } from './inspector/AddStepForm';
import { PerturbPanel, PerturbationLine } from './perturb/PerturbPanel';
import { WorldSpecForm } from './perturb/WorldSpecForm';
import { SimulatePanel } from './simulate/SimulatePanel';
import { CurationBar } from './inspector/CurationBar';
import { StateView } from './inspector/StateView';
import { ExactPrompt } from './inspector/ExactPrompt';
import { revealNode } from '../state/workspace-actions';
import { ActionText } from './inspector/ActionText';
import { AgentLine } from './agents/AgentLine';
import { NodeActions } from './inspector/NodeActions';
import { DescriptionEditor } from './inspector/DescriptionEditor';

const StateEditor = lazy(() => import('./monaco/StateEditor'));

/** While the selection keeps moving faster than this, the inspector waits for it to rest. */
const FOLLOW_QUIET_MS = 150;

/**
 * The node the inspector shows: the selected one, once its full record is here. Moving
 * through the tree stays fluent: while the selection moves (holding j, paging), the
 * inspector (a terminal, an editor) waits until it rests instead of rebuilding for every
 * node passed; a single move is followed at once.
 */
function useFollowedNodeId(selectedId: string | null): string | null {
  const [shownId, setShownId] = useState(selectedId);
  const lastMove = useRef(0);
  useEffect(() => {
    const now = performance.now();
    const resting = now - lastMove.current > FOLLOW_QUIET_MS;
    lastMove.current = now;
    let cancelled = false;
    const timer = setTimeout(
      () => {
        const show = () => !cancelled && setShownId(selectedId);
        if (selectedId) void nodeRecord(selectedId).then(show);
        else show();
      },
      resting ? 0 : FOLLOW_QUIET_MS,
    );
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [selectedId]);
  return shownId;
}

/** Shows one node. Model output and imported text are rendered as text, never as HTML. */
export function NodeInspector() {
  const tree = useUiStore((s) => s.tree);
  const trajectory = useUiStore((s) => s.trajectory);
  const editing = useUiStore((s) => s.editingNodeId);
  // The tree holds outlines; the full record of the shown node is fetched (and kept) apart.
  const selectedId = useUiStore((s) => s.selectedNodeId);
  const shownId = useFollowedNodeId(selectedId);
  const node = useNodeRecord(shownId);
  const error = useNodeError(shownId);
  const root = useNodeRecord(tree?.shape.roots[0]);
  const recording = root?.provenance.recording as { cols?: number } | undefined;
  // Until it catches up with the selection, the shown node takes no clicks or keys meant for the selected one.
  const behind = Boolean(node) && node?.id !== selectedId;
  if (!tree || !trajectory) return <p className="muted pad">Nothing selected.</p>;
  if (!selectedId) return <p className="muted pad">Select a node in the tree.</p>;
  // The marks come from the tree, which always has the selected node: they are never behind,
  // so `t` finds the tag field at once and what is typed next never reaches the tree's keys.
  const marks = tree.byId.get(selectedId);
  const curation = marks && (
    <CurationBar id={selectedId} marks={marks} note={node && !behind ? node.curation.note : null} />
  );
  if (!node && error && shownId)
    return (
      <div className="inspector">
        {curation}
        <div role="alert">
          <p className="error">Could not load this node: {error}</p>
          <button type="button" onClick={() => retryNode(shownId)}>
            Retry
          </button>
        </div>
      </div>
    );
  if (!node)
    return (
      <div className="inspector">
        {curation}
        <p className="muted">Loading the node…</p>
      </div>
    );
  return (
    <div className="inspector" aria-label="Node inspector" aria-busy={behind}>
      <InspectorHead node={node} domain={trajectory.domain} behind={behind} />
      {curation}
      <InspectorBody node={node} trajectory={trajectory} editing={editing === node.id} behind={behind} columns={recording?.cols} />
    </div>
  );
}

/**
 * The shown node's head and body are memoized on that node: while the selection moves through
 * the tree faster than the inspector follows, each move re-renders only the curation bar, not
 * the simulate and perturb forms below it, so a keypress in a large tree stays within a frame.
 */
const InspectorHead = memo(function InspectorHead({ node, domain, behind }: { node: NodeRecord; domain: string; behind: boolean }) {
  const isRoot = node.parentId === null;
  return (
    <div className="inspector-head" inert={behind}>
      <span className={`badge origin-${node.origin}`} data-testid="node-origin">
        {node.origin}
      </span>
      <span className="muted">
        {isRoot ? 'initial state' : `step ${node.depth}`} · {domain}
      </span>
      {node.editedFromId && (
        <button className="link" onClick={() => revealNode(node.editedFromId!)}>
          edited from the original
        </button>
      )}
      <NodeActions node={node} />
    </div>
  );
});

interface BodyProps {
  node: NodeRecord;
  trajectory: TrajectoryRecord;
  editing: boolean;
  behind: boolean;
  columns: number | undefined;
}

const InspectorBody = memo(function InspectorBody({ node, trajectory, editing, behind, columns }: BodyProps) {
  const isRoot = node.parentId === null;
  return (
    <>
      <AgentLine node={node} />
      <PerturbationLine node={node} />
      <div className="inspector-body" inert={behind}>
        {editing ? (
          <Suspense fallback={<p className="muted">Loading the editor…</p>}>
            <StateEditor node={node} domain={trajectory.domain} />
          </Suspense>
        ) : (
          <>
            {isRoot && trajectory.systemPrompt && (
              <details>
                <summary>Environment description</summary>
                <pre className="text">{trajectory.systemPrompt}</pre>
              </details>
            )}
            {isRoot && <DescriptionEditor key={`description-${trajectory.id}`} trajectory={trajectory} />}
            {!isRoot && (
              <>
                <h3>Action</h3>
                <ActionText action={node.action} />
              </>
            )}
            {node.reasoning && (
              <details>
                <summary>Reasoning</summary>
                <pre className="text">{node.reasoning}</pre>
              </details>
            )}
            <StateView node={node} domain={trajectory.domain} columns={columns} />
          </>
        )}
        {node.parentId === null && <WorldSpecForm key={`world-${trajectory.id}`} trajectory={trajectory} />}
        {Array.isArray(node.provenance.worldSpecContradictions) && (
          <p className="error" data-testid="world-spec-contradictions">
            Contradicts the world specification: {(node.provenance.worldSpecContradictions as { message: string }[]).map((c) => c.message).join('; ')}
          </p>
        )}
        <SimulatePanel key={`sim-${node.id}`} node={node} />
        {node.parentId !== null && <PerturbPanel key={`perturb-${node.id}`} node={node} domain={trajectory.domain} />}
        {(node.origin === 'simulated' || node.origin === 'perturbed' || node.origin === 'agent') && <ExactPrompt key={`prompt-${node.id}`} nodeId={node.id} />}
        <details>
          <summary>Provenance</summary>
          <pre className="text small">{JSON.stringify({ createdAt: node.createdAt, ...node.provenance }, null, 2)}</pre>
        </details>
        <AddStepForm key={`step-${node.id}`} parentId={node.id} />
      </div>
    </>
  );
});
