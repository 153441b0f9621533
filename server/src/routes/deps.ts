import type { authentication } from '../middleware/auth.js';
import type { Limiters } from '../middleware/rateLimit.js';
import type { Services } from '../services/index.js';
import type { Settings } from '../settings.js';
import type { Database } from '../db/client.js';

export interface RouteDeps {
  services: Services;
  auth: ReturnType<typeof authentication>;
  limiters: Limiters;
  settings: Pick<Settings, 'agentSignup' | 'supportAddress' | 'inbound' | 'reportTimeZone'>;
  database: Pick<Database, 'ping'>;
  /** The port the inbound SMTP listener took, if it runs. */
  inboundSmtpPort?: number;
}
