import type { Domain, NodeRecord } from '../../../../src-main/common/trajectory/model';
import { languageOf } from './setup';
import { TextDiff } from './TextDiff';
import { editorHeight } from './StateEditor';

function Diff(props: { original: string; modified: string; language: string; height: number }) {
  return (
    <div className="editor-frame">
      <TextDiff {...props} />
    </div>
  );
}

/** An edited state against the original it was edited from, in Monaco's diff editor. */
export default function StateDiff({ original, edited, domain }: { original: NodeRecord; edited: NodeRecord; domain: Domain }) {
  const longer = edited.observation.length > original.observation.length ? edited.observation : original.observation;
  return (
    <div className="state-diff" data-testid="state-diff">
      {original.action !== edited.action && (
        <>
          <h3>Action: original → edited</h3>
          <Diff original={original.action} modified={edited.action} language="plaintext" height={editorHeight(edited.action, 40, 160)} />
        </>
      )}
      <h3>Observation: original → edited</h3>
      <Diff original={original.observation} modified={edited.observation} language={languageOf(domain, edited.observation)} height={editorHeight(longer, 120)} />
    </div>
  );
}
