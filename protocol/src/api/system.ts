export type AgentSignup = 'open' | 'closed';
