import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { LIMITS, isTimeZone } from '@helpdesk/protocol';

/** JWT_TTL accepts seconds or a number with a unit (`7d`, `12h`, `30m`). */
const UNIT_SECONDS = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 } as const;
const durationSeconds = z
  .string()
  .trim()
  .regex(/^\d+\s*[smhdw]?$/, 'must be seconds or a number with a unit s, m, h, d or w (e.g. 7d)')
  .transform((value) => {
    const unit = value.at(-1) as keyof typeof UNIT_SECONDS;
    return unit in UNIT_SECONDS ? Number.parseInt(value, 10) * UNIT_SECONDS[unit] : Number(value);
  })
  .refine((s) => s > 0, 'must be positive');

const flag = z.enum(['1', '0', 'true', 'false', 'on', 'off', 'yes', 'no']).transform((v) => ['1', 'true', 'on', 'yes'].includes(v));
const blankIsUnset = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankIsUnset, schema.optional());

const env = z
  .object({
    NODE_ENV: optional(z.string()),
    PORT: optional(z.coerce.number().int().min(0).max(65_535)).transform((v) => v ?? 3000),
    HOST: optional(z.string()),
    DATABASE_URL: optional(z.url()),
    DATA_DIR: optional(z.string()).transform((v) => v ?? './data'),
    REDIS_URL: optional(z.url({ protocol: /^rediss?$/ })),
    REDIS_KEY_PREFIX: optional(z.string().regex(/^[\w.:-]{1,64}$/, 'must be 1-64 letters, digits or . : _ -')).transform(
      (v) => v ?? 'helpdesk',
    ),
    TRUST_PROXY: optional(flag),
    JWT_SECRET: optional(z.string().min(32, 'must be at least 32 characters')),
    JWT_TTL: optional(durationSeconds).transform((v) => v ?? UNIT_SECONDS.d * 7),
    PUBLIC_URL: optional(z.url()),
    SMTP_URL: optional(z.url()),
    MAIL_FROM: optional(z.string()).transform((v) => v ?? 'HelpDesk System <no-reply@helpdesk.local>'),
    SUPPORT_ADDRESS: optional(z.email()).transform((v) => (v ?? 'support@helpdesk.local').toLowerCase()),
    EMAIL_THREAD_SECRET: optional(z.string().min(16, 'must be at least 16 characters')),
    OUTBOX_CLAIM_MS: optional(z.coerce.number().int().min(1000)).transform((v) => v ?? 120_000),
    OUTBOX_CONCURRENCY: optional(z.coerce.number().int().min(1).max(50)).transform((v) => v ?? 4),
    INBOUND_CONCURRENCY: optional(z.coerce.number().int().min(1).max(50)),
    INBOUND_CLAIM_MS: optional(z.coerce.number().int().min(1000)).transform((v) => v ?? 120_000),
    AGENT_SIGNUP: optional(z.enum(['open', 'closed'])),
    SEED_DEMO: optional(flag),
    ADMIN_EMAIL: optional(z.email()),
    ADMIN_PASSWORD: optional(z.string().min(6)),
    LOG_LEVEL: optional(z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])).transform((v) => v ?? 'info'),
    CLIENT_DIR: optional(z.string()),
    SHUTDOWN_TIMEOUT_MS: optional(z.coerce.number().int().positive()).transform((v) => v ?? 10_000),
    MAX_SOCKETS_PER_USER: optional(z.coerce.number().int().positive()).transform((v) => v ?? 20),
    MAX_ANONYMOUS_SOCKETS_PER_ADDRESS: optional(z.coerce.number().int().positive()).transform(
      (v) => v ?? LIMITS.anonymousSocketsPerAddress,
    ),
    PRESENCE_TTL_MS: optional(z.coerce.number().int().min(1000)),
    READ_MEMO: optional(flag),
    PREPARED_STATEMENTS: optional(flag),
    ATTACHMENT_MAX_BYTES: optional(z.coerce.number().int().positive().max(2_147_483_647)).transform(
      (v) => v ?? LIMITS.attachments.maxBytes,
    ),
    ATTACHMENT_MAX_COUNT: optional(z.coerce.number().int().positive().max(LIMITS.attachments.idsMax)).transform(
      (v) => v ?? LIMITS.attachments.maxCount,
    ),
    ATTACHMENT_DIR: optional(z.string()),
    INBOUND_SMTP_PORT: optional(z.coerce.number().int().min(0).max(65_535)),
    INBOUND_SMTP_HOST: optional(z.string()).transform((v) => v ?? '127.0.0.1'),
    INBOUND_MAX_BYTES: optional(z.coerce.number().int().min(1024)).transform((v) => v ?? 36 * 1024 * 1024),
    INBOUND_CREATE_USERS: optional(flag).transform((v) => v ?? true),
    INBOUND_MAX_PER_SENDER_PER_HOUR: optional(z.coerce.number().int().positive()).transform((v) => v ?? 20),
    IMAP_URL: optional(z.url({ protocol: /^imaps?$/ })),
    IMAP_DONE_FOLDER: optional(z.string()).transform((v) => v ?? 'Processed'),
    IMAP_POLL_MS: optional(z.coerce.number().int().min(1000)).transform((v) => v ?? 60_000),
    // Tests and demos shorten it; a tenth of a second is the floor.
    SLA_SCAN_INTERVAL_MS: optional(z.coerce.number().int().min(100)).transform((v) => v ?? LIMITS.sla.scanIntervalMs),
    // A scraper's bearer token: long enough that guessing it is no way in.
    METRICS_TOKEN: optional(
      z
        .string()
        .trim()
        .regex(/^\S{16,256}$/, 'must be 16-256 characters without spaces'),
    ),
    METRICS_PORT: optional(z.coerce.number().int().min(0).max(65_535)),
    WEBHOOK_ALLOW_HTTP: optional(flag),
    WEBHOOK_ALLOW_PRIVATE: optional(flag),
    CSAT_ENABLED: optional(flag).transform((v) => v ?? true),
    CSAT_TOKEN_TTL_DAYS: optional(z.coerce.number().int().min(LIMITS.csat.tokenTtlDays.min).max(LIMITS.csat.tokenTtlDays.max)).transform(
      (v) => v ?? LIMITS.csat.tokenTtlDays.default,
    ),
    // The time zone report days are cut in when a call names none (docs/api.md#reports).
    REPORT_TIME_ZONE: optional(z.string().refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin')).transform(
      (v) => v ?? 'UTC',
    ),
  })

  .refine((e) => !e.REDIS_URL || e.JWT_SECRET, {
    // A generated secret lives in one process's DATA_DIR; the others would reject its tokens.
    path: ['JWT_SECRET'],
    message: 'is required when REDIS_URL is set, so every server process signs and verifies the same tokens',
  });

/** The built web client; src/ and dist/ both sit two levels below the repository root. */
const DEFAULT_CLIENT_DIR = fileURLToPath(new URL('../../client/dist', import.meta.url));

export type Settings = ReturnType<typeof parseSettings>;

/** The only reader of process.env (docs/api.md#server-settings): everything else receives Settings. */
export function parseSettings(source: NodeJS.ProcessEnv = process.env) {
  const parsed = env.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid settings: ${problems}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    trustProxy: e.TRUST_PROXY ?? false,
    jwtSecret: e.JWT_SECRET,
    jwtTtlSeconds: e.JWT_TTL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    supportAddress: e.SUPPORT_ADDRESS,
    // Unset: derived from the JWT secret once that is known (mail/threadAddress.ts).
    emailThreadSecret: e.EMAIL_THREAD_SECRET,
    // How long a process owns the mail it took from the outbox: a crashed one's is sent after it.
    outboxClaimMs: e.OUTBOX_CLAIM_MS,
    outboxConcurrency: e.OUTBOX_CONCURRENCY,
    // Self-service agent accounts read every customer's tickets: open on the embedded demo only.
    agentSignup: e.AGENT_SIGNUP ?? (e.DATABASE_URL ? 'closed' : 'open'),
    // Demo data only on the embedded database unless asked for (docs/api.md#server-settings).
    seedDemo: e.SEED_DEMO ?? !e.DATABASE_URL,
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL.toLowerCase(), password: e.ADMIN_PASSWORD } : undefined,
    logLevel: e.LOG_LEVEL,
    production: e.NODE_ENV === 'production',
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    maxSocketsPerUser: e.MAX_SOCKETS_PER_USER,
    maxAnonymousSocketsPerAddress: e.MAX_ANONYMOUS_SOCKETS_PER_ADDRESS,
    // How long a viewer of a vanished process lingers; tests shorten it (default LIMITS.presence.ttlMs).
    presenceTtlMs: e.PRESENCE_TTL_MS ?? LIMITS.presence.ttlMs,
    // How often the SLA scanner marks warnings and breaches (one process at a time, services/sla/scanner.ts).
    slaScanIntervalMs: e.SLA_SCAN_INTERVAL_MS,
    clientDir: e.CLIENT_DIR ?? DEFAULT_CLIENT_DIR,
    // Kept answers (services/readMemo.ts); off only to measure without them (bench:scale).
    readMemo: e.READ_MEMO ?? true,
    // Reads planned once per connection (db/plannedStatements.ts); off behind a pooler that cannot keep them.
    preparedStatements: e.PREPARED_STATEMENTS ?? true,
    attachments: {
      maxBytes: e.ATTACHMENT_MAX_BYTES,
      maxCount: e.ATTACHMENT_MAX_COUNT,
      dir: e.ATTACHMENT_DIR ?? path.join(e.DATA_DIR, 'attachments'),
    },
    // Mail intake (docs/api.md#email-intake): off unless INBOUND_SMTP_PORT or IMAP_URL is set.
    inbound: {
      smtpPort: e.INBOUND_SMTP_PORT,
      smtpHost: e.INBOUND_SMTP_HOST,
      maxBytes: e.INBOUND_MAX_BYTES,
      createUsers: e.INBOUND_CREATE_USERS,
      maxPerSenderPerHour: e.INBOUND_MAX_PER_SENDER_PER_HOUR,
      claimMs: e.INBOUND_CLAIM_MS,
      concurrency: e.INBOUND_CONCURRENCY,
      imap: e.IMAP_URL ? { url: e.IMAP_URL, doneFolder: e.IMAP_DONE_FOLDER, pollMs: e.IMAP_POLL_MS } : undefined,
    },
    // Prometheus figures (docs/api.md#metrics): off unless METRICS_TOKEN or METRICS_PORT is set.
    metrics: { token: e.METRICS_TOKEN, port: e.METRICS_PORT },
    // Webhooks go to public https addresses only, unless these allow more (docs/api.md#webhooks).
    webhooks: { allowHttp: e.WEBHOOK_ALLOW_HTTP ?? false, allowPrivate: e.WEBHOOK_ALLOW_PRIVATE ?? false },
    // Satisfaction surveys (docs/api.md#satisfaction-surveys): one mailed to the owner per resolution.
    csat: { enabled: e.CSAT_ENABLED, tokenTtlDays: e.CSAT_TOKEN_TTL_DAYS },
    // Reports (docs/api.md#reports): the days of a call without `tz` are this zone's.
    reportTimeZone: e.REPORT_TIME_ZONE,
  };
}
