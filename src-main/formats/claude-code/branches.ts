// Which records of a Claude Code session a rewind took back. The file is append-only and
// tree-shaped: every record names the one it follows (parentUuid). A rewind (Esc Esc, /rewind)
// writes nothing of its own; the person's next prompt is written with the rewind target as
// its parent, and what followed the target before stays in the file, off the conversation.
// Claude Code shows (and resumes) the chain from the newest message back to the root: what
// hangs off that chain where it continues with a new prompt is a rewound branch.
//
// Other forks are not rewinds and are kept in file order: parallel tool results and progress
// records also give a record two children, and a chain that cannot be followed (a parent the
// file lacks, a cycle) keeps every record, as before.
import type { ImportSource } from '../../parsing/sources';
import { jsonLines } from '../../parsing/json-lines';
import { chainBack } from '../../parsing/record-chain';

export interface Node {
  uuid: string;
  parent: string | null;
  /** Where a compaction's boundary record continues from (its parentUuid is null). */
  logicalParent: string | null;
  line: number;
  /** A message of the conversation (user or assistant, not one the harness added). */
  message: boolean;
  /** The person's own prompt: a user message with text and no tool result. */
  prompt: boolean;
}

type Rec = Record<string, unknown>;

function isPrompt(r: Rec): boolean {
  if (r.type !== 'user' || r.isMeta === true || r.isCompactSummary === true) return false;
  const content = (r.message as { content?: unknown } | undefined)?.content;
  if (typeof content === 'string') return content.trim() !== '';
  if (!Array.isArray(content)) return false;
  const blocks = content as { type?: unknown }[];
  return blocks.some((b) => b?.type === 'text') && !blocks.some((b) => b?.type === 'tool_result');
}

/** The line a rewound record is on → the line of the prompt that replaced its branch. */
export type Rewound = Map<string, number>;

/** The main conversation's records of a session file (not a subagent's), by uuid and in file order. */
export interface ConversationRecords {
  nodes: Map<string, Node>;
  order: Node[];
}

export function conversationRecords(source: ImportSource): ConversationRecords {
  const nodes = new Map<string, Node>();
  const order: Node[] = [];
  for (const item of jsonLines(source)) {
    if (item.kind !== 'json') continue;
    const r = item.value as Rec;
    if (typeof r !== 'object' || r === null || typeof r.uuid !== 'string' || r.isSidechain === true || nodes.has(r.uuid)) continue;
    const node: Node = {
      uuid: r.uuid,
      parent: typeof r.parentUuid === 'string' ? r.parentUuid : null,
      logicalParent: typeof r.logicalParentUuid === 'string' ? r.logicalParentUuid : null,
      line: item.lineNo,
      message: (r.type === 'user' || r.type === 'assistant') && r.isMeta !== true,
      prompt: isPrompt(r),
    };
    nodes.set(node.uuid, node);
    order.push(node);
  }
  return { nodes, order };
}

/** The record a node follows: its parent, or where a compaction's boundary continues from. */
export const parentOf = (n: Node): string | null => n.parent ?? n.logicalParent;

/** The newest message of the conversation: where Claude Code shows (and resumes) it from. */
export const newestMessage = (records: ConversationRecords): Node | undefined => records.order.findLast((n) => n.message);

/** The uuids of the main conversation's records that a rewind took back, each with the line of the prompt written after it. */
export function rewoundRecords(source: ImportSource): Rewound {
  const { nodes, order } = conversationRecords(source);
  const rewound: Rewound = new Map();
  const leaf = newestMessage({ nodes, order });
  if (!leaf) return rewound;
  // The conversation as Claude Code shows it: from the newest message back to the root.
  const path = chainBack(leaf, nodes, parentOf);
  if (!path) return rewound; // a parent the file lacks, or a cycle: no chain to trust
  const children = new Map<string | null, Node[]>();
  for (const n of order) {
    const parent = parentOf(n);
    const list = children.get(parent);
    if (list) list.push(n);
    else children.set(parent, [n]);
  }
  const takeBack = (from: Node, at: number) => {
    const stack = [from];
    while (stack.length) {
      const n = stack.pop()!;
      if (rewound.has(n.uuid) || path.has(n.uuid)) continue;
      rewound.set(n.uuid, at);
      stack.push(...(children.get(n.uuid) ?? []));
    }
  };
  // Each fork on the chain where a prompt the person wrote replaced an earlier prompt.
  for (const uuid of path) {
    const node = nodes.get(uuid)!;
    // A rewind to the very start writes the new prompt as a root of its own, which a root the
    // harness wrote (or a continued session) also is: without a marker, roots are not compared.
    const parent = parentOf(node);
    if (!node.prompt || parent === null) continue;
    for (const sibling of children.get(parent) ?? []) {
      // A rewind replaces a prompt with a prompt: a sibling of another kind (a progress record, a
      // parallel result) is a fork of the app's own, and what hangs off it is kept.
      if (sibling === node || !sibling.prompt || path.has(sibling.uuid) || sibling.line > node.line) continue;
      takeBack(sibling, node.line);
    }
  }
  return rewound;
}
