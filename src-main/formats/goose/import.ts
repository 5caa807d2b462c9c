// goose session files, as goose wrote them before 1.10 (~/.local/share/goose/sessions/<id>.jsonl;
// crates/goose session/storage.rs): a first line describing the session (SessionMetadata:
// working_dir, description, message_count, token counts), then one message a line
// (./conversation.ts). goose 1.10 copied these files into its database, and left them where they
// were. ./read-sessions.ts makes the trajectory.
import { basename } from 'node:path';
import type { TrajectoryImporter } from '../format';
import type { ImportItem } from '../../parsing/import-item';
import { gooseSessionItems } from './read-sessions';

const FORMAT = 'goose-jsonl';

/** A goose tool call or result, as serde writes it: the tag, the id, then the call or result with its status. */
const TOOL_ITEM = /"type"\s*:\s*"tool(Request|Response)"\s*,\s*"id"\s*:\s*"[^"]*"\s*,\s*"tool(Call|Result)"\s*:\s*\{\s*"status"\s*:/;
/** SessionMetadata as goose writes it first. */
const METADATA = /^\{\s*"(working_dir|description)"\s*:/;
/** A message as goose writes it: role, created (seconds), content. */
const MESSAGE = /^\{\s*("id"\s*:\s*(null|"[^"]*")\s*,\s*)?"role"\s*:\s*"(user|assistant)"\s*,\s*"created"\s*:\s*\d+\s*,\s*"content"\s*:\s*\[/;

export const gooseJsonlImporter: TrajectoryImporter = {
  id: FORMAT,
  label: 'goose session .jsonl (before 1.10)',
  detect(name, head) {
    const first = head.trimStart();
    if (TOOL_ITEM.test(head) && (METADATA.test(first) || MESSAGE.test(first))) return 0.97;
    if (METADATA.test(first) && /"message_count"\s*:/.test(first.split('\n', 1)[0]!)) return 0.9;
    if (MESSAGE.test(first)) return 0.6;
    return 0;
  },
  parse(source, newId, now): Iterable<ImportItem> {
    return gooseSessionItems(source, FORMAT, newId, now, basename(source.name).replace(/\.jsonl$/i, ''));
  },
};
