// How long a real terminal command may run, and how its observation says it was stopped.
// One source for the sandboxed terminal (reality/terminal) and the timeout perturbation
// (perturbations/catalog/terminal.ts), so a simulated timeout reads like a real one.

/** The real terminal's default limit per command; the perturbation's default too. */
export const DEFAULT_COMMAND_TIMEOUT_SECONDS = 15;

/** The line the real terminal adds to an observation when it stopped a command at its limit. */
export function timedOutNote(seconds: number): string {
  return `[timed out after ${seconds}s: the command was stopped]`;
}
