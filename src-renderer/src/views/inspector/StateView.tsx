import { lazy, Suspense } from 'react';
import type { Domain, NodeRecord } from '../../../../src-main/common/trajectory/model';
import { startEditing } from '../../state/curation-actions';
import { useNodeRecord } from '../../state/node-records';
import { useUiStore, type InspectorView } from '../../state/workspace-actions';
import { setInspectorView } from '../../state/view-actions';
import { DOMAIN_VIEWS } from '../renderers/registry';
import { TextState } from '../renderers/TextState';

const StateDiff = lazy(() => import('../monaco/StateDiff'));

/** The observation as its domain looks, as raw text (`r`), or against the original it was edited from (`d`). */
export function StateView({ node, domain, columns }: { node: NodeRecord; domain: Domain; columns?: number }) {
  const view = useUiStore((s) => s.inspectorView);
  const original = useNodeRecord(node.editedFromId);
  const { label, View } = DOMAIN_VIEWS[domain];
  const shown: InspectorView = view === 'diff' && !original ? 'rendered' : view;
  const tab = (v: InspectorView, text: string, key: string) => (
    <button role="tab" aria-selected={shown === v} className="tab" onClick={() => setInspectorView(v)} title={`${text} (${key})`}>
      {text}
    </button>
  );
  return (
    <section className="state-view" aria-label="Observation">
      <div className="state-tabs" role="tablist">
        <h3>{node.parentId === null ? 'Initial state' : 'Observation'}</h3>
        <span className="spacer" />
        {tab('rendered', label, 'r')}
        {tab('raw', 'Raw text', 'r')}
        {original && tab('diff', 'Diff with original', 'd')}
        {node.parentId !== null && (
          <button className="small-button" onClick={() => startEditing(node.id)} title="Edit the action and observation (e)">
            Edit…
          </button>
        )}
      </div>
      <Suspense fallback={<p className="muted">Loading the view…</p>}>
        {shown === 'raw' && <TextState text={node.observation} testId="node-observation" />}
        {shown === 'rendered' && <View text={node.observation} columns={columns} />}
        {shown === 'diff' && original && <StateDiff original={original} edited={node} domain={domain} />}
      </Suspense>
    </section>
  );
}
