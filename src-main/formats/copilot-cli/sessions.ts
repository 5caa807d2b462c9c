// Where GitHub Copilot CLI keeps its sessions: `session-state/<session id>/events.jsonl` under
// COPILOT_HOME, else ~/.copilot (earlier versions wrote `session-state/<session id>.jsonl`).
import type { SessionLocations } from '../format';
import { foldersFrom, workingDirectoryIn } from '../session-folders';

export const copilotCliSessions: SessionLocations = {
  agent: 'GitHub Copilot CLI',
  folders: (home) => foldersFrom(home, 'COPILOT_HOME', ['.copilot'], ['session-state']),
  files: ['*/events.jsonl', '*.jsonl'],
  // Each call that ran ends in a tool.execution_complete event naming it by toolCallId (the
  // pattern starts at the hint, as the counting needs: a match must cover where the hint is).
  toolCall: /"tool\.execution_complete"\s*,\s*"data"\s*:\s*\{[^{}]*?"toolCallId"\s*:\s*"([^"]+)"/g,
  toolCallHint: '"tool.execution_complete"',
  // session.start's context names the working folder; the session folder is only an id.
  project: (head) => workingDirectoryIn(head),
};
