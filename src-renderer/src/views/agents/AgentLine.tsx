// Who acted at an `agent` node (an MCP client of mcp-serve, a policy, an API client), and the
// perturbation the schedule injected there, so a session's path reads as what happened to it.
import type { NodeRecord } from '../../../../src-main/common/trajectory/model';

const KIND: Record<string, string> = { 'mcp-client': 'MCP client', policy: 'policy', 'openai-client': 'API client' };

export function AgentLine({ node }: { node: NodeRecord }) {
  const agent = node.provenance.agent;
  const perturbation = node.provenance.perturbations?.[0] as { kind?: string; mode?: string } | undefined;
  if (!agent && !(node.origin === 'agent' && perturbation)) return null;
  return (
    <p className="agent-line" data-testid="agent-line">
      {agent && (
        <>
          Acted by {KIND[agent.kind] ?? agent.kind} <strong>{agent.name ?? 'unnamed'}</strong>
          {agent.model && agent.model !== agent.name ? ` (${agent.model})` : ''}
          {agent.session ? <span className="muted"> · session {agent.session.slice(0, 8)}</span> : null}
        </>
      )}
      {perturbation?.kind && (
        <span className="badge origin-perturbed" data-testid="injected-perturbation" title={`Injected in ${perturbation.mode ?? 'transform'} mode; the provenance holds its seed and parameters`}>
          perturbed: {perturbation.kind}
        </span>
      )}
    </p>
  );
}
