// OpenHands event streams (an exported trajectory, an evaluation's history): imported (./import.ts), not exported.
// Not found on disk: OpenHands keeps a conversation as one file per event (~/.openhands/sessions/<id>/events/<n>.json), which the session search does not assemble.
import type { FormatEntry } from '../format';
import { openHandsEventsImporter } from './import';

export const openHandsEventsFormat: FormatEntry = { id: 'openhands-events', label: 'OpenHands event stream', extensions: ['json', 'jsonl'], importer: openHandsEventsImporter };
