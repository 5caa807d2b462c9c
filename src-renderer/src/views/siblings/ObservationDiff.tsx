import type { Domain } from '../../../../src-main/common/trajectory/model';
import { editorHeight } from '../monaco/StateEditor';
import { languageOf } from '../monaco/setup';
import { TextDiff } from '../monaco/TextDiff';

/** Two observations in Monaco's diff editor (loaded lazily: default export). */
export default function ObservationDiff({ original, modified, domain, label }: { original: string; modified: string; domain: Domain; label: string }) {
  const longer = modified.length > original.length ? modified : original;
  return (
    <div className="editor-frame" aria-label={label} data-testid="observation-diff">
      <TextDiff original={original} modified={modified} language={languageOf(domain, longer)} height={editorHeight(longer, 80, 320)} />
    </div>
  );
}
