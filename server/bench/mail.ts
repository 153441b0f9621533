/**
 * Mail benchmark: mail filed from the SMTP listener, and staff replies sent through the outbox.
 *
 *   npm run bench:mail          # PGlite, and PostgreSQL when it answers
 *
 * Inbound: one in-process server (the test harness: real HTTP, real SMTP listener, real filing worker)
 * gets BENCH_MAIL_INBOUND (1000) mails over SMTP, BENCH_MAIL_CONCURRENCY (10) connections in flight:
 * two thirds open tickets from new addresses, a third answer existing tickets at their plus-address,
 * every tenth carries a 100 KB attachment, offered at BENCH_MAIL_RATE (60) a second. A staff Socket.IO client watches; latency runs from the
 * listener's `250` (DATA accepted: the message is on disk and queued) to the new ticket or comment
 * reaching that client; mails/s is the mails over the time from the first send to the last event.
 *
 * Outbound: the same server gets BENCH_MAIL_REPLIES (1000) staff replies spread over 100 tickets,
 * BENCH_MAIL_CONCURRENCY requests in flight, at BENCH_MAIL_RATE a second. Each reply is written with its outbox row in one
 * transaction and sent by the sender after the commit. Latency is from just before the HTTP POST to
 * the moment the receiver has the whole mail (DATA accepted); mails/s is replies over the time from
 * the first POST to the last mail received.
 *
 * BENCH_MAIL_ONLY=inbound|outbound runs one half, BENCH_MAIL_DATABASES=pglite|postgres one database; INBOUND_CONCURRENCY and OUTBOX_CONCURRENCY, when
 * set, go to the server (docs/api.md#server-settings).
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test; a fresh database is created
 * on that server and dropped). Exit code 1 when a mail did not arrive within BENCH_TIMEOUT_MS (60000).
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import type { ServerToClientEvents, ClientToServerEvents, Ticket } from '@helpdesk/protocol';
import nodemailer from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { io, type Socket } from 'socket.io-client';
import { threadAddress } from '../src/mail/threadAddress.js';
import { ADMIN_ENV, createCast, createTicket } from '../test/factories.js';
import { startTestServer, type TestServer } from '../test/server.js';
import { DEFAULT_POSTGRES_URL, machine, markdownTable, percentile, positiveInt, requirePostgres } from './support.js';

const POSTGRES_URL = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
const REPLIES = positiveInt('BENCH_MAIL_REPLIES', 1_000);
const INBOUND = positiveInt('BENCH_MAIL_INBOUND', 1_000);
/** Mails (or replies) offered per second; 0 = as fast as the connections in flight allow. */
const RATE = positiveInt('BENCH_MAIL_RATE', 60, 0);
const CONCURRENCY = positiveInt('BENCH_MAIL_CONCURRENCY', 10);
const TIMEOUT_MS = positiveInt('BENCH_TIMEOUT_MS', 60_000);
const TICKETS = 100;
/** BENCH_MAIL_DATABASES=pglite or postgres runs on one only. */
const WANTED = (process.env.BENCH_MAIL_DATABASES || 'pglite,postgres').split(',');
/** `inbound` or `outbound` runs one half only. */
const ONLY = process.env.BENCH_MAIL_ONLY;
/** The server's own settings for how many mails it files and sends at once, passed on when set. */
const SERVER_ENV = Object.fromEntries(
  ['INBOUND_CONCURRENCY', 'OUTBOX_CONCURRENCY'].flatMap((name) => {
    const value = process.env[name];
    return value ? [[name, value]] : [];
  }),
);

const SUPPORT = 'support@helpdesk.test';
/** The file every tenth inbound mail carries. */
const ATTACHMENT = randomBytes(100 * 1024);

/** Waits for mail n's slot when the load is paced at RATE a second from `started`. */
const paced = async (started: number, n: number) => {
  if (RATE === 0) return;
  const wait = started + (n * 1000) / RATE - performance.now();
  if (wait > 0) await sleep(wait);
};

interface Result {
  database: string;
  /** The machine's 1-minute load average when the run ended: other work on the cores shows here. */
  load: number;
  mailsPerSecond: number;
  latencies: number[];
  missing: number;
}

/** Points the harness at a fresh database of this kind (test/database.ts), dropped at close. */
function useDatabase(database: 'pglite' | 'postgres') {
  process.env.TEST_DB = database;
  process.env.TEST_DATABASE_URL = POSTGRES_URL;
}

async function inbound(database: 'pglite' | 'postgres'): Promise<Result> {
  useDatabase(database);
  const t: TestServer = await startTestServer({
    ...ADMIN_ENV,
    INBOUND_SMTP_PORT: '0',
    SUPPORT_ADDRESS: SUPPORT,
    INBOUND_MAX_PER_SENDER_PER_HOUR: '100000',
    LOG_LEVEL: 'silent',
    ...SERVER_ENV,
  });
  const acceptedAt = new Map<number, number>();
  const seenAt = new Map<number, number>();
  let staff: Socket<ServerToClientEvents, ClientToServerEvents> | undefined;
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: t.server.inboundSmtpPort,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: CONCURRENCY,
    maxMessages: Number.POSITIVE_INFINITY,
  });
  try {
    const cast = await createCast(t);
    // The threads a third of the mail answers: tickets of ten customers, answered at their plus-address.
    const tickets: Ticket[] = [];
    for (let i = 0; i < TICKETS; i++) tickets.push(await createTicket(t.api, cast.owner.token, { title: `Bench thread ${i}` }));
    const mark = (text: string) => /Bench mail (\d+)\b/.exec(text)?.[1];
    const seen = (text: string) => {
      const n = mark(text);
      if (n !== undefined && !seenAt.has(Number(n))) seenAt.set(Number(n), performance.now());
    };
    staff = io(t.url, { path: '/socket.io', transports: ['websocket'], auth: { token: cast.agent.token }, forceNew: true });
    staff.on('ticket-changed', (event) => {
      if (event.action === 'created') seen(event.ticket.title);
    });
    staff.on('comment-added', (event) => seen(event.comment.content));
    await new Promise<void>((resolve, reject) => {
      staff!.once('connect', resolve);
      staff!.once('connect_error', reject);
    });

    let next = 0;
    const started = performance.now();
    const sender = async () => {
      for (let n = next++; n < INBOUND; n = next++) {
        await paced(started, n);
        const reply = n % 3 === 2;
        const ticket = tickets[n % TICKETS]!;
        const info = await transport.sendMail({
          from: reply ? cast.owner.user.email : `customer${n}@bench.example.test`,
          to: reply ? threadAddress(ticket.id, t.server.services.inbound.threadKeys) : SUPPORT,
          subject: reply ? `Re: ${ticket.title}` : `Bench mail ${n} about the printer`,
          text: `Bench mail ${n}. The printer on floor ${n % 7} shows an error again.`,
          ...(n % 10 === 0 && { attachments: [{ filename: `scan-${n}.bin`, content: ATTACHMENT }] }),
        });
        if (!/^250 /.test(info.response)) throw new Error(`mail ${n} not accepted: ${info.response}`);
        acceptedAt.set(n, performance.now());
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, sender));
    const deadline = Date.now() + TIMEOUT_MS;
    while (seenAt.size < INBOUND && Date.now() < deadline) await sleep(20);
    const latencies = [...seenAt].map(([n, at]) => Math.max(0, at - (acceptedAt.get(n) ?? at))).sort((a, b) => a - b);
    return {
      database,
      load: os.loadavg()[0]!,
      mailsPerSecond: (seenAt.size * 1000) / (Math.max(...seenAt.values()) - started),
      latencies,
      missing: INBOUND - seenAt.size,
    };
  } finally {
    transport.close();
    staff?.close();
    await t.close();
  }
}

async function outbound(database: 'pglite' | 'postgres'): Promise<Result> {
  useDatabase(database);
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  let lastArrival = 0;
  // A receiver that only reads the reply's number from the raw bytes: parsing each mail here, in the
  // server's process, would cost as much CPU as the sending it measures.
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const n = /Bench reply (\d+)\./.exec(Buffer.concat(chunks).toString('latin1'))?.[1];
        const started = n === undefined ? undefined : sentAt.get(Number(n));
        if (started !== undefined) {
          lastArrival = performance.now();
          latencies.push(lastArrival - started);
        }
        callback();
      });
    },
  });
  // A connection's failure is reported on the server: without a listener, one reset would end the bench.
  smtp.on('error', () => undefined);
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  const t = await startTestServer({ ...ADMIN_ENV, SMTP_URL: smtpUrl, LOG_LEVEL: 'silent', ...SERVER_ENV });
  try {
    const cast = await createCast(t);
    const tickets: Ticket[] = [];
    for (let i = 0; i < TICKETS; i++) tickets.push(await createTicket(t.api, cast.owner.token, { title: `Bench ticket ${i}` }));
    await t.server.mailer.idle();

    let next = 0;
    const started = performance.now();
    const worker = async () => {
      for (let n = next++; n < REPLIES; n = next++) {
        const ticket = tickets[n % TICKETS]!;
        await paced(started, n);
        sentAt.set(n, performance.now());
        const res = await t.api.post(`/tickets/${ticket.id}/comments`, { content: `Bench reply ${n}.` }, { token: cast.agent.token });
        if (res.status !== 201) throw new Error(`reply ${n} failed: ${res.status} ${JSON.stringify(res.body)}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const deadline = Date.now() + TIMEOUT_MS;
    while (latencies.length < REPLIES && Date.now() < deadline) await sleep(20);
    return {
      database,
      load: os.loadavg()[0]!,
      mailsPerSecond: (latencies.length * 1000) / (lastArrival - started),
      latencies: latencies.sort((a, b) => a - b),
      missing: REPLIES - latencies.length,
    };
  } finally {
    await t.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
}

async function main() {
  const databases: ('pglite' | 'postgres')[] = [];
  if (WANTED.includes('pglite')) databases.push('pglite');
  if (WANTED.includes('postgres')) {
    try {
      await requirePostgres(POSTGRES_URL, 'BENCH_DATABASE_URL');
      databases.push('postgres');
    } catch (error) {
      console.error(`PostgreSQL skipped: ${(error as Error).message}`);
    }
  }
  const table = (results: Result[]) =>
    markdownTable(
      ['database', 'mails/s', 'p50 ms', 'p95 ms', 'max ms', 'missing', 'load'],
      results.map((r) => [
        r.database,
        r.mailsPerSecond.toFixed(0),
        percentile(r.latencies, 0.5).toFixed(0),
        percentile(r.latencies, 0.95).toFixed(0),
        (r.latencies.at(-1) ?? Number.NaN).toFixed(0),
        String(r.missing),
        r.load.toFixed(1),
      ]),
    );
  const received: Result[] = [];
  const sent: Result[] = [];
  for (const database of databases) {
    if (ONLY !== 'outbound') received.push(await inbound(database));
    if (ONLY !== 'inbound') sent.push(await outbound(database));
  }
  const rate = RATE === 0 ? 'full speed' : `${RATE}/s`;
  console.log(machine());
  if (Object.keys(SERVER_ENV).length > 0) console.log(`server settings: ${JSON.stringify(SERVER_ENV)}`);
  if (received.length > 0) {
    console.log(
      `\nInbound: ${INBOUND} mails over SMTP (a third answering existing tickets, every tenth with a 100 KB file), offered at ${rate}, ${CONCURRENCY} connections; latency from 250 to the staff socket`,
    );
    console.log(table(received));
  }
  if (sent.length > 0) {
    console.log(
      `\nOutbound: ${REPLIES} staff replies through the outbox to a local SMTP receiver, offered at ${rate}, ${CONCURRENCY} requests in flight`,
    );
    console.log(table(sent));
  }
  if ([...received, ...sent].some((r) => r.missing > 0)) process.exitCode = 1;
}

await main();
