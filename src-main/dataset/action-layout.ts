// One layout for actions in every dataset: imported actions often arrive wrapped in a code
// fence (AgentWorldBench writes them so), recorded and simulated ones never do. A model
// trained on both would learn that a fence is sometimes part of an action; a dataset holds
// the bare action, whichever way the step was made. Pure.

const FENCED = /^(`{3,}|~{3,})[^\n`]*\n([\s\S]*?)\n?\1[ \t]*$/;

/** The action without one code fence around the whole of it, and without surrounding blank space. */
export function normalizeAction(action: string): string {
  const trimmed = action.trim();
  const fenced = FENCED.exec(trimmed);
  return fenced ? fenced[2]!.replace(/\s+$/, '') : trimmed;
}
