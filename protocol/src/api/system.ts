export type AgentSignup = 'open' | 'closed';

export interface ConfigResponse {
  success: true;
  agentSignup: AgentSignup;
}
export interface HealthResponse {
  status: 'ok' | 'error';
  db: 'ok' | 'error';
}
