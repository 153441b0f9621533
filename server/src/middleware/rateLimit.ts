import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { TooManyRequestsError } from '../lib/errors.js';

export interface RateLimitRule {
  points: number;
  durationSeconds: number;
}

export interface RateLimitRules {
  /** Failed sign-ins per IP and email. */
  login: RateLimitRule;
  /** Reset-link requests per IP and email, and per IP overall. */
  resetPerEmail: RateLimitRule;
  resetPerIp: RateLimitRule;
  /** Anonymous "helpful" votes per IP. */
  helpfulAnonymous: RateLimitRule;
}

export const DEFAULT_RATE_LIMITS: RateLimitRules = {
  login: { points: 10, durationSeconds: 15 * 60 },
  resetPerEmail: { points: 5, durationSeconds: 60 * 60 },
  resetPerIp: { points: 20, durationSeconds: 60 * 60 },
  helpfulAnonymous: { points: 30, durationSeconds: 60 * 60 },
};

export interface Limiter {
  /** Counts one attempt; throws 429 once the budget is spent. */
  consume(key: string): Promise<void>;
  /** Throws 429 while the budget is spent, without counting. */
  check(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

export function createLimiter(rule: RateLimitRule, message: string, store?: (rule: RateLimitRule) => RateLimiterAbstract): Limiter {
  const limiter = store ? store(rule) : new RateLimiterMemory({ points: rule.points, duration: rule.durationSeconds });
  const refuse = (res: RateLimiterRes) => new TooManyRequestsError(message, Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
  return {
    async consume(key) {
      try {
        await limiter.consume(key);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) throw refuse(rejection);
        throw rejection;
      }
    },
    async check(key) {
      const res = await limiter.get(key);
      if (res && res.consumedPoints >= rule.points) throw refuse(res);
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}
