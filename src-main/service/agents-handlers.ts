// Handlers for the agents part of the contract (contract/agents.ts): policy expansion as a job.
import type { agentsApi } from '../common/contract/agents';
import { expandNode } from '../agents/expand';
import type { HandlersOf, Studio } from './studio';

export function agentsHandlers(studio: Studio): HandlersOf<typeof agentsApi> {
  return {
    'agents.expand': (input) => {
      // Refused before the job starts: no model, no workspace.
      studio.simulator.engine();
      studio.requireStore();
      const label = `Expanding ${input.depth} level${input.depth > 1 ? 's' : ''}: ${input.actions} action${input.actions > 1 ? 's' : ''} × ${input.samples} sample${input.samples > 1 ? 's' : ''}`;
      return studio.jobs.start('expand', label, (job) => expandNode(studio.simulator, input, job), input.jobId);
    },
  };
}
