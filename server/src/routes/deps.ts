import type { authentication } from '../middleware/auth.js';
import type { Limiter } from '../middleware/rateLimit.js';
import type { Services } from '../services/index.js';
import type { Settings } from '../settings.js';
import type { Database } from '../db/client.js';

export interface RouteDeps {
  services: Services;
  auth: ReturnType<typeof authentication>;
  limiters: { login: Limiter; resetPerEmail: Limiter; resetPerIp: Limiter; helpfulAnonymous: Limiter };
  settings: Pick<Settings, 'agentSignup'>;
  database: Pick<Database, 'ping'>;
}
