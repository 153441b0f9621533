import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { LIMITS, MESSAGES } from '@helpdesk/protocol';
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
  /** Failed sign-ins per IP over all emails: password spraying tries one password on many accounts. */
  loginPerAddress: RateLimitRule;
  /** Sign-ups per IP (an admin creating accounts is not counted). */
  signupPerAddress: RateLimitRule;
  /** New-password submissions (reset links used) per IP. */
  resetSubmitPerAddress: RateLimitRule;
  /** Comments per user, over all tickets. */
  commentPerUser: RateLimitRule;
  /** Change-password attempts per account (guessing the current password of a stolen session). */
  passwordChangePerUser: RateLimitRule;
  /** Change-password attempts per IP over all accounts. */
  passwordChangePerAddress: RateLimitRule;
  /** Bulk ticket changes per staff member: each call may write 100 tickets and notify their assignees. */
  bulkPerUser: RateLimitRule;
  /** Bulk ticket changes per IP over all accounts. */
  bulkPerAddress: RateLimitRule;
  /** Upload requests (POST /uploads, up to ATTACHMENT_MAX_COUNT files each) per account. */
  uploadPerUser: RateLimitRule;
  /** Upload requests per IP over all accounts. */
  uploadPerAddress: RateLimitRule;
  /** Requests made with one API token. */
  tokenRequests: RateLimitRule;
  /** Unknown, revoked or expired API tokens per IP: each costs a database read, unlike a bad JWT. */
  invalidTokensPerAddress: RateLimitRule;
  /** Survey link reads and answers per IP (public: the link is the only key, so guessing must stay slow). */
  csatPerAddress: RateLimitRule;
}

export const DEFAULT_RATE_LIMITS: RateLimitRules = {
  login: { points: 10, durationSeconds: 15 * 60 },
  resetPerEmail: { points: 5, durationSeconds: 60 * 60 },
  resetPerIp: { points: 20, durationSeconds: 60 * 60 },
  helpfulAnonymous: { points: 30, durationSeconds: 60 * 60 },
  // Per address budgets stay well above what one office behind a shared NAT address needs.
  loginPerAddress: { points: 30, durationSeconds: 15 * 60 },
  signupPerAddress: { points: 10, durationSeconds: 60 * 60 },
  resetSubmitPerAddress: { points: 10, durationSeconds: 15 * 60 },
  commentPerUser: { points: 10, durationSeconds: 60 },
  passwordChangePerUser: { points: 5, durationSeconds: 15 * 60 },
  passwordChangePerAddress: { points: 20, durationSeconds: 15 * 60 },
  // One bulk change every three seconds on average is well above what a person triaging needs.
  bulkPerUser: { points: 20, durationSeconds: 60 },
  bulkPerAddress: { points: 60, durationSeconds: 60 },
  // The composer sends one request per file: a person attaching a dozen files stays well below it.
  uploadPerUser: { points: 60, durationSeconds: 60 },
  uploadPerAddress: { points: 200, durationSeconds: 60 },
  tokenRequests: { points: LIMITS.apiTokens.requestsPerMinute, durationSeconds: 60 },
  invalidTokensPerAddress: { points: 30, durationSeconds: 15 * 60 },
  // Opening a link and sending an answer or two is a handful of calls; an office shares an address.
  csatPerAddress: { points: 60, durationSeconds: 15 * 60 },
};

export interface Limiter {
  /** Counts one attempt; throws 429 once the budget is spent. */
  consume(key: string): Promise<void>;
  /** Throws 429 while the budget is spent, without counting. */
  check(key: string): Promise<void>;
  reset(key: string): Promise<void>;
  /** Gives back one point taken by `consume`. */
  refund(key: string): Promise<void>;
}

/** Where a limiter keeps its counters; `name` keeps the limiters' keys apart in a shared store. */
export type LimiterStore = (name: string, rule: RateLimitRule) => RateLimiterAbstract;

export const memoryStore: LimiterStore = (_name, rule) => new RateLimiterMemory({ points: rule.points, duration: rule.durationSeconds });

/**
 * Counters in Redis, so every process spends one budget. While Redis is away each process falls back
 * to its own memory at once (the "insurance" limiter) rather than refusing or waiting.
 */
export const redisStore =
  (redis: Redis, keyPrefix: string): LimiterStore =>
  (name, rule) =>
    new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${keyPrefix}:rate:${name}`,
      points: rule.points,
      duration: rule.durationSeconds,
      rejectIfRedisNotReady: true,
      insuranceLimiter: memoryStore(name, rule),
    });

export type Limiters = Record<keyof RateLimitRules, Limiter>;

const LIMIT_MESSAGES: Record<keyof RateLimitRules, string> = {
  login: MESSAGES.auth.tooManyLogins,
  resetPerEmail: MESSAGES.auth.tooManyResets,
  resetPerIp: MESSAGES.auth.tooManyResets,
  helpfulAnonymous: MESSAGES.auth.tooManyVotes,
  loginPerAddress: MESSAGES.auth.tooManyLoginsFromAddress,
  signupPerAddress: MESSAGES.auth.tooManySignups,
  resetSubmitPerAddress: MESSAGES.auth.tooManyResetAttempts,
  commentPerUser: MESSAGES.tickets.tooManyComments,
  passwordChangePerUser: MESSAGES.users.tooManyPasswordChanges,
  passwordChangePerAddress: MESSAGES.users.tooManyPasswordChanges,
  bulkPerUser: MESSAGES.tickets.tooManyBulkChanges,
  bulkPerAddress: MESSAGES.tickets.tooManyBulkChangesFromAddress,
  uploadPerUser: MESSAGES.attachments.tooManyUploads,
  uploadPerAddress: MESSAGES.attachments.tooManyUploadsFromAddress,
  tokenRequests: MESSAGES.apiTokens.tooManyRequests,
  invalidTokensPerAddress: MESSAGES.apiTokens.tooManyInvalid,
  csatPerAddress: MESSAGES.csat.tooManyRequests,
};

/** `onRefused` hears each refusal by the limit's name (the metrics' count). */
export function createLimiters(
  rules: RateLimitRules,
  store: LimiterStore = memoryStore,
  onRefused: (name: keyof RateLimitRules) => void = () => undefined,
): Limiters {
  const entries = (Object.keys(LIMIT_MESSAGES) as Array<keyof RateLimitRules>).map((name) => [
    name,
    createLimiter(rules[name], LIMIT_MESSAGES[name], store(name, rules[name]), () => onRefused(name)),
  ]);
  return Object.fromEntries(entries) as Limiters;
}

function createLimiter(rule: RateLimitRule, message: string, limiter: RateLimiterAbstract, refused: () => void): Limiter {
  const refuse = (res: RateLimiterRes) => {
    refused();
    return new TooManyRequestsError(message, Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
  };
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
    async refund(key) {
      await limiter.reward(key, 1);
    },
  };
}
