// Handlers for the agent sessions part of the contract (contract/sessions.ts): the search of
// the agents' own folders on the machine the core runs on.
import type { sessionsApi } from '../common/contract/sessions';
import { findSessions, thisMachine } from '../sessions/find-sessions';
import type { HandlersOf, Studio } from './studio';

export function sessionsHandlers(_studio: Studio): HandlersOf<typeof sessionsApi> {
  return {
    'sessions.list': ({ formats }) => findSessions(thisMachine(), formats ? { formats } : {}),
  };
}
