import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'helpdesk' },
    // Credentials never reach the log, even when a request body is logged while debugging.
    redact: { paths: ['req.headers.authorization', '*.password', '*.newPassword', '*.token'], censor: '[redacted]' },
  });
}
