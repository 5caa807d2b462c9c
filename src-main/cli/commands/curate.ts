// `worldloom curate`: star, rate, tag, note or prefer a node, through the same contract
// calls the studio's inspector makes (node.setCuration, siblings.prefer).
import type { Command } from 'commander';
import type { Curation } from '../../common/trajectory/model';
import { UserError } from '../../common/user-error';
import { withCore } from '../core';
import { wholeNumber } from '../option-parsers';

interface CurateOptions {
  workspace: string;
  node: string;
  star?: boolean;
  rate?: number;
  tag?: string[];
  untag?: string[];
  note?: string;
  prefer?: boolean;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function registerCurate(program: Command): void {
  program
    .command('curate')
    .description('star, rate, tag, note or prefer a node; prints its curation as JSON')
    .requiredOption('-w, --workspace <file>', 'workspace file')
    .requiredOption('-n, --node <id>', 'the node (ids: worldloom ls --workspace W --trajectory ID)')
    .option('--star', 'star the node')
    .option('--no-star', 'remove the star')
    .option('--rate <n>', 'rate it 1 to 5; 0 removes the rating', wholeNumber(0, 5))
    .option('--tag <tag>', 'add a tag (repeat for more)', collect)
    .option('--untag <tag>', 'remove a tag (repeat for more)', collect)
    .option('--note <text>', 'set the note ("" clears it)')
    .option('--prefer', 'mark it the preferred sample of its action (its siblings lose the mark), as Prefer in Samples side by side')
    .action((opts: CurateOptions) =>
      withCore({ workspace: { path: opts.workspace } }, async (core) => {
        const tagging = opts.tag !== undefined || opts.untag !== undefined;
        if (opts.star === undefined && opts.rate === undefined && opts.note === undefined && !tagging && !opts.prefer) {
          throw new UserError('Nothing to change: give --star, --no-star, --rate N, --tag T, --untag T, --note TEXT or --prefer.', 'invalid-input');
        }
        // Prefer first: it is a tag, so tags added or removed below start from it.
        if (opts.prefer) await core.call('siblings.prefer', { nodeId: opts.node });
        const change: Partial<Curation> = {};
        if (opts.star !== undefined) change.starred = opts.star;
        if (opts.rate !== undefined) change.rating = opts.rate === 0 ? null : opts.rate;
        if (opts.note !== undefined) change.note = opts.note;
        if (tagging) {
          const { curation } = await core.call('node.get', { id: opts.node });
          const removed = new Set(opts.untag ?? []);
          change.tags = [...new Set([...curation.tags, ...(opts.tag ?? [])])].filter((t) => !removed.has(t));
        }
        const node = Object.keys(change).length > 0 ? await core.call('node.setCuration', { id: opts.node, curation: change }) : await core.call('node.get', { id: opts.node });
        process.stdout.write(JSON.stringify({ id: node.id, curation: node.curation }) + '\n');
      }),
    );
}
