import type { Domain } from '../../../../src-main/common/trajectory/model';
import { languageOf } from '../monaco/setup';
import { TextDiff } from '../monaco/TextDiff';

/** Simulated (left) against real (right), sides scrolled together; always two columns. */
export function SimRealDiff({ simulated, real, domain }: { simulated: string; real: string; domain: Domain }) {
  return (
    <div className="editor-frame compare-diff" data-testid="compare-diff">
      <TextDiff original={simulated} modified={real} language={languageOf(domain, real)} height="100%" inlineWhenNarrow={false} />
    </div>
  );
}
