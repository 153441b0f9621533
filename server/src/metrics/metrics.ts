import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { INBOUND_STATUSES, SLA_TARGET_KINDS, type InboundStatus, type SlaTargetKind } from '@helpdesk/protocol';
import type { Logger } from '../lib/logger.js';

/** What became of a mail the outbox tried: accepted, to be tried again, given up, or bounced later. */
export const MAIL_OUT_RESULTS = ['sent', 'retry', 'failed', 'bounced'] as const;
export type MailOutResult = (typeof MAIL_OUT_RESULTS)[number];
/** What became of a webhook delivery's attempt: a 2xx, to be tried again, given up, or not sent (address refused). */
export const WEBHOOK_RESULTS = ['delivered', 'retry', 'failed', 'refused'] as const;
export type WebhookResult = (typeof WEBHOOK_RESULTS)[number];
/** A filed mail's status, or an attempt that failed and will be made again. */
export type MailInResult = Exclude<InboundStatus, 'queued'> | 'retry';
const MAIL_IN_RESULTS: readonly MailInResult[] = [...INBOUND_STATUSES.filter((s) => s !== 'queued'), 'retry'];

/**
 * What the server's parts count as it happens (docs/api.md#metrics). Every part takes one, and a
 * server without metrics gives them `NO_METRICS`, so nothing is counted and nothing is kept.
 */
export interface MetricsRecorder {
  request(method: string, route: string, status: number, seconds: number): void;
  mailOut(result: MailOutResult): void;
  mailIn(result: MailInResult): void;
  slaBreached(target: SlaTargetKind): void;
  rateLimited(limit: string): void;
  webhookDelivery(result: WebhookResult): void;
}

export const NO_METRICS: MetricsRecorder = {
  request: () => undefined,
  mailOut: () => undefined,
  mailIn: () => undefined,
  slaBreached: () => undefined,
  rateLimited: () => undefined,
  webhookDelivery: () => undefined,
};

/** Figures read when scraped rather than counted: this process's sockets, and the database's queues and counters. */
export interface MetricsSources {
  socketConnections(): number;
  ticketsByStatus(): Promise<Record<string, number>>;
  outboxDepth(): Promise<number>;
  webhookQueueDepth(): Promise<number>;
}

export interface Metrics extends MetricsRecorder {
  registry: Registry;
  /** The sources scraped from, once the parts that hold them exist. */
  readFrom(sources: MetricsSources): void;
  /** Prometheus' text format. */
  render(): Promise<string>;
}

/** Seconds; an API call answers in milliseconds, a slow upload or export in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * One registry per server: Node's and the process's defaults, and the helpdesk's own. Labels carry
 * kinds and route templates only, never an address, a name or an id, so their number stays bounded
 * and a scrape discloses nobody.
 */
export function createMetrics(logger: Logger, limits: readonly string[]): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  let sources: MetricsSources | undefined;
  // A scrape while the database is away still answers: the process's own figures are what tells.
  const scraped = async <T>(what: string, read: (from: MetricsSources) => Promise<T>): Promise<T | undefined> => {
    if (!sources) return undefined;
    try {
      return await read(sources);
    } catch (err) {
      logger.debug({ err, metric: what }, 'metric not read');
      return undefined;
    }
  };

  const duration = new Histogram({
    name: 'helpdesk_http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status, in seconds.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  new Gauge({
    name: 'helpdesk_socket_connections',
    help: 'Socket.IO connections open on this process.',
    registers: [registry],
    collect() {
      if (sources) this.set(sources.socketConnections());
    },
  });
  new Gauge({
    name: 'helpdesk_tickets',
    help: 'Tickets by status, from the maintained counters.',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const counts = await scraped('helpdesk_tickets', (from) => from.ticketsByStatus());
      if (!counts) return;
      this.reset();
      for (const [status, n] of Object.entries(counts)) this.set({ status }, n);
    },
  });
  new Gauge({
    name: 'helpdesk_mail_outbox_depth',
    help: 'Mails queued in the outbox, due or waiting for a retry.',
    registers: [registry],
    async collect() {
      const depth = await scraped('helpdesk_mail_outbox_depth', (from) => from.outboxDepth());
      if (depth !== undefined) this.set(depth);
    },
  });
  new Gauge({
    name: 'helpdesk_webhook_queue_depth',
    help: 'Webhook deliveries waiting to be sent, due or waiting for a retry.',
    registers: [registry],
    async collect() {
      const depth = await scraped('helpdesk_webhook_queue_depth', (from) => from.webhookQueueDepth());
      if (depth !== undefined) this.set(depth);
    },
  });
  const counter = <L extends string>(name: string, help: string, label: L) =>
    new Counter<L>({ name, help, labelNames: [label], registers: [registry] });
  const mailOut = counter(
    'helpdesk_mail_out_total',
    'Outgoing mails by what became of an attempt: sent, retry, failed, bounced.',
    'result',
  );
  const mailIn = counter(
    'helpdesk_mail_in_total',
    'Incoming mails by how they were filed: ticket, comment, note, ignored, rejected, failed, retry.',
    'result',
  );
  const breaches = counter('helpdesk_sla_breaches_total', 'Service-level targets breached, by target.', 'target');
  const refusals = counter('helpdesk_rate_limit_refusals_total', 'Requests refused by a rate limit, by limit.', 'limit');
  const webhookDeliveries = counter(
    'helpdesk_webhook_deliveries_total',
    'Webhook delivery attempts by what became of them: delivered, retry, failed, refused.',
    'result',
  );

  // Every series from the start at 0, so a rate over the first increase is not lost to a missing series.
  for (const result of MAIL_OUT_RESULTS) mailOut.inc({ result }, 0);
  for (const result of MAIL_IN_RESULTS) mailIn.inc({ result }, 0);
  for (const target of SLA_TARGET_KINDS) breaches.inc({ target }, 0);
  for (const limit of limits) refusals.inc({ limit }, 0);
  for (const result of WEBHOOK_RESULTS) webhookDeliveries.inc({ result }, 0);

  return {
    registry,
    readFrom(from) {
      sources = from;
    },
    render: () => registry.metrics(),
    request(method, route, status, seconds) {
      duration.observe({ method, route, status: String(status) }, seconds);
    },
    mailOut: (result) => mailOut.inc({ result }),
    mailIn: (result) => mailIn.inc({ result }),
    slaBreached: (target) => breaches.inc({ target }),
    rateLimited: (limit) => refusals.inc({ limit }),
    webhookDelivery: (result) => webhookDeliveries.inc({ result }),
  };
}
