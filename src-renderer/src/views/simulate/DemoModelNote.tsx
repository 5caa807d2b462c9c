import { useSimulation } from '../../state/simulation';
import { isEmbeddedModel } from './model-name';

/**
 * Where predictions are shown: while the embedded model simulates, says it is a small demo
 * (a new user's first prediction is often confidently wrong) and what to load for real ones.
 */
export function DemoModelNote() {
  const embedded = useSimulation((s) => isEmbeddedModel(s.model));
  if (!embedded) return null;
  return (
    <p className="demo-model-note small" role="note" data-testid="demo-model-note">
      <strong>worldloom-nano is a small demo model</strong> (9.5 M parameters, trained on sessions Worldloom recorded
      itself): it shows how simulation works, and its predictions are often wrong, even when all samples agree. For real
      predictions load Qwen-AgentWorld-35B-A3B with <strong>Model</strong> in the toolbar: a GGUF file (e.g. Q4_K_M)
      or an OpenAI-compatible server such as vLLM.
    </p>
  );
}
