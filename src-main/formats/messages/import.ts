// Chat messages JSONL (TRL, ms-swift) read back as trajectories: ../../parsing/chat-dataset.ts
// makes trajectories of the rows, so every dataset Worldloom exports can be imported back.
import { chatLines } from '../../parsing/chat-dataset';
import { messagesRowTurns } from '../../parsing/chat-rows';
import type { TrajectoryImporter } from '../format';

const firstLine = (head: string) => head.split('\n', 1)[0] ?? '';

export const chatMessagesImporter: TrajectoryImporter = {
  id: 'messages',
  label: 'Chat messages JSONL (TRL, ms-swift)',
  detect(_name, head) {
    const line = firstLine(head).trimStart();
    if (line.startsWith('{') && /"messages"\s*:\s*\[\s*\{\s*"(role|content)"/.test(line)) return 0.85;
    // One JSON array of rows (a .json dataset).
    return /^\s*\[\s*\{\s*"messages"\s*:\s*\[\s*\{\s*"(role|content)"/.test(head) ? 0.8 : 0;
  },
  parse: (source, newId, now, options) => chatLines('messages', messagesRowTurns, source, newId, now, options),
};
