export type AgentSignup = 'open' | 'closed';

export interface ConfigResponse {
  success: true;
  agentSignup: AgentSignup;
}
export interface HealthResponse {
  status: 'ok' | 'error';
  db: 'ok' | 'error';
  /** The port the inbound SMTP listener took (INBOUND_SMTP_PORT=0 takes any free one). */
  inboundSmtpPort?: number;
}
