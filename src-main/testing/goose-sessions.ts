// goose sessions written the way goose writes them, for the tests of the goose readers and of
// the session search: messages as serde_json writes goose's Message (compact, fields in
// declaration order), a .jsonl session file of goose before 1.10 (SessionMetadata first), and
// a sessions.db with the tables crates/goose session_manager.rs creates and migrates to.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** One goose message line: {id, role, created, content, metadata}. `content` is JSON text, kept as written (a `1.0` stays). */
export const gooseMessage = (role: 'user' | 'assistant', created: number, content: string, metadata = '{"userVisible":true,"agentVisible":true}') =>
  `{"id":null,"role":"${role}","created":${created},"content":${content},"metadata":${metadata}}`;

/** The messages of a session that asks why a test fails: every kind of item the reader must pair, keep or say. */
export const GOOSE_MESSAGES: readonly { role: 'user' | 'assistant'; content: string; metadata?: string }[] = [
  { role: 'user', content: '[{"type":"text","text":"Why does the parser test fail?"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}]' },
  {
    role: 'assistant',
    content:
      '[{"type":"thinking","thinking":"Run the tests first.","signature":"sig"},{"type":"text","text":"Running them."},' +
      '{"type":"toolRequest","id":"toolu_1","toolCall":{"status":"success","value":{"name":"developer__shell","arguments":{"command":"npm test -- parser"}}}}]',
  },
  {
    role: 'user',
    // goose's shell gives the model its output and the person a copy (audience user, priority 0.0).
    content:
      '[{"type":"toolResponse","id":"toolu_1","toolResult":{"status":"success","value":{"content":[' +
      '{"type":"text","text":"FAIL parser.test.ts\\n  expected 3, got 2\\n","annotations":{"audience":["assistant"]}},' +
      '{"type":"text","text":"FAIL parser.test.ts\\n  expected 3, got 2\\n","annotations":{"audience":["user"],"priority":0.0}}],"isError":true}}}]',
  },
  { role: 'assistant', content: '[{"type":"systemNotification","notificationType":"inlineMessage","msg":"Compacting the conversation"}]', metadata: '{"userVisible":true,"agentVisible":false}' },
  { role: 'user', content: '[{"type":"text","text":"Summary so far: the parser test fails."}]', metadata: '{"userVisible":false,"agentVisible":true}' },
  {
    role: 'assistant',
    content:
      '[{"type":"redactedThinking","data":"opaque"},' +
      '{"type":"toolRequest","id":"toolu_2","toolCall":{"status":"success","value":{"name":"developer__text_editor","arguments":{"command": "view", "path": "src/parser.ts", "line": 1.0}}}},' +
      '{"type":"toolRequest","id":"toolu_3","toolCall":{"status":"error","error":"Could not interpret tool use parameters"}}]',
  },
  {
    role: 'user',
    // An older result: the bare list of content items.
    content:
      '[{"type":"toolResponse","id":"toolu_2","toolResult":{"status":"success","value":[{"type":"text","text":"export const count = (s) => s.split(\\",\\").length - 1;\\n"}]}},' +
      '{"type":"toolResponse","id":"toolu_3","toolResult":{"status":"error","error":"Could not interpret tool use parameters"}}]',
  },
  { role: 'assistant', content: '[{"type":"toolRequest","id":"toolu_4","toolCall":{"status":"success","value":{"name":"developer__shell","arguments":{"command":"cat /etc/shadow"}}}}]' },
  { role: 'user', content: '[{"type":"toolResponse","id":"toolu_4","toolResult":{"status":"error","error":"Execution failed: permission denied"}}]' },
  { role: 'assistant', content: '[{"type":"toolConfirmationRequest","id":"toolu_5","toolName":"developer__shell","arguments":{"command":"rm -rf build"},"prompt":null},{"type":"toolRequest","id":"toolu_5","toolCall":{"status":"success","value":{"name":"developer__shell","arguments":{"command":"rm -rf build"}}}}]' },
];

/** A goose .jsonl session file (before 1.10): SessionMetadata, then the messages. */
export function gooseJsonlSession(workingDir: string, messages = GOOSE_MESSAGES): string {
  const metadata = `{"working_dir":${JSON.stringify(workingDir)},"description":"Fix the parser test","schedule_id":null,"message_count":${messages.length},"total_tokens":4100,"input_tokens":3900,"output_tokens":200,"accumulated_total_tokens":9000,"accumulated_input_tokens":8500,"accumulated_output_tokens":500}`;
  return [metadata, ...messages.map((m, i) => gooseMessage(m.role, 1762600000 + i, m.content, m.metadata))].join('\n') + '\n';
}

export interface GooseDbSession {
  id: string;
  name: string;
  workingDir: string;
  sessionType?: string;
  updatedAt: string;
  messages: readonly { role: 'user' | 'assistant'; content: string; metadata?: string }[];
}

/** A sessions.db as goose 1.10 creates it (schema version 5), with the columns later migrations add (provider_name, message_id). */
export function writeGooseDatabase(path: string, sessions: readonly GooseDbSession[]): void {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.exec(`
    CREATE TABLE schema_version (version INTEGER PRIMARY KEY, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
    INSERT INTO schema_version (version) VALUES (5), (6), (7);
    CREATE TABLE sessions (
      id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '', user_set_name BOOLEAN DEFAULT FALSE,
      session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL, created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
      updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, extension_data TEXT DEFAULT '{}', total_tokens INTEGER, input_tokens INTEGER,
      output_tokens INTEGER, accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER,
      schedule_id TEXT, recipe_json TEXT, user_recipe_values_json TEXT
    );
    CREATE TABLE messages (
      id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL, content_json TEXT NOT NULL,
      created_timestamp INTEGER NOT NULL, timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP, tokens INTEGER, metadata_json TEXT
    );
    CREATE INDEX idx_messages_session ON messages(session_id);
    CREATE INDEX idx_messages_timestamp ON messages(timestamp);
    CREATE INDEX idx_sessions_updated ON sessions(updated_at DESC);
    CREATE INDEX idx_sessions_type ON sessions(session_type);
    ALTER TABLE sessions ADD COLUMN provider_name TEXT;
    ALTER TABLE sessions ADD COLUMN model_config_json TEXT;
    ALTER TABLE messages ADD COLUMN message_id TEXT;
  `);
  const addSession = db.prepare('INSERT INTO sessions (id, name, session_type, working_dir, created_at, updated_at, extension_data, provider_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  // Every message of one session written in the same second, as replace_conversation does: goose's ORDER BY timestamp ties, the row order decides.
  const addMessage = db.prepare("INSERT INTO messages (session_id, role, content_json, created_timestamp, timestamp, metadata_json, message_id) VALUES (?, ?, ?, ?, '2025-11-08 10:00:00', ?, ?)");
  for (const s of sessions) {
    addSession.run(s.id, s.name, s.sessionType ?? 'user', s.workingDir, '2025-11-08 09:59:00', s.updatedAt, '{}', 'anthropic');
    s.messages.forEach((m, i) => addMessage.run(s.id, m.role, m.content, 1762595000 + i, m.metadata ?? '{"userVisible":true,"agentVisible":true}', `msg_${s.id}_${i}`));
  }
  db.close();
}
