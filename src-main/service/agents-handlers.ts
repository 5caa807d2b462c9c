// Handlers for the agents part of the contract (contract/agents.ts): policy expansion as a job.
import type { agentsApi } from '../common/contract/agents';
import { UserError } from '../common/user-error';
import { expandNode } from '../agents/expand';
import type { HandlersOf, Studio } from './studio';

export function agentsHandlers(studio: Studio): HandlersOf<typeof agentsApi> {
  return {
    'agents.expand': (input) => {
      if (!studio.models.current) throw new UserError('No world model is loaded. Open the model panel and pick a model folder or an endpoint.', 'no-model');
      studio.requireStore();
      const label = `Expanding ${input.depth} level${input.depth > 1 ? 's' : ''}: ${input.actions} action${input.actions > 1 ? 's' : ''} × ${input.samples} sample${input.samples > 1 ? 's' : ''}`;
      return studio.jobs.start('expand', label, (job) => expandNode(studio, input, job), input.jobId);
    },
  };
}
