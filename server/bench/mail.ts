/**
 * Mail benchmark, outbound half: staff replies through the outbox to a local SMTP receiver.
 *
 *   npm run bench:mail          # PGlite, and PostgreSQL when it answers
 *
 * For each database, one in-process server (the test harness: real HTTP, real outbox sender, a real
 * SMTP receiver on loopback) gets BENCH_MAIL_REPLIES (1000) staff replies spread over 100 tickets,
 * BENCH_MAIL_CONCURRENCY (10) requests in flight. Each reply is written with its outbox row in one
 * transaction and sent by the sender after the commit. Latency is from just before the HTTP POST to
 * the moment the receiver has the whole mail (DATA accepted); mails/s is replies over the time from
 * the first POST to the last mail received. The inbound half (mail filed per second) is to be added.
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test; a fresh database is created
 * on that server and dropped). Exit code 1 when a mail did not arrive within BENCH_TIMEOUT_MS (60000).
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Ticket } from '@helpdesk/protocol';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { ADMIN_ENV, createCast, createTicket } from '../test/factories.js';
import { startTestServer } from '../test/server.js';
import { DEFAULT_POSTGRES_URL, machine, markdownTable, percentile, positiveInt, requirePostgres } from './support.js';

const POSTGRES_URL = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
const REPLIES = positiveInt('BENCH_MAIL_REPLIES', 1_000);
const CONCURRENCY = positiveInt('BENCH_MAIL_CONCURRENCY', 10);
const TIMEOUT_MS = positiveInt('BENCH_TIMEOUT_MS', 60_000);
const TICKETS = 100;

interface Result {
  database: string;
  mailsPerSecond: number;
  latencies: number[];
  missing: number;
}

async function outbound(database: 'pglite' | 'postgres'): Promise<Result> {
  // The harness picks its database from these (test/database.ts): a fresh one, dropped at close.
  process.env.TEST_DB = database;
  process.env.TEST_DATABASE_URL = POSTGRES_URL;
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
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  const t = await startTestServer({ ...ADMIN_ENV, SMTP_URL: smtpUrl, LOG_LEVEL: 'silent' });
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
  const databases: ('pglite' | 'postgres')[] = ['pglite'];
  try {
    await requirePostgres(POSTGRES_URL, 'BENCH_DATABASE_URL');
    databases.push('postgres');
  } catch (error) {
    console.error(`PostgreSQL skipped: ${(error as Error).message}`);
  }
  const results: Result[] = [];
  for (const database of databases) results.push(await outbound(database));
  console.log(`\nOutbound: ${REPLIES} staff replies through the outbox to a local SMTP receiver, ${CONCURRENCY} requests in flight`);
  console.log(machine());
  console.log(
    markdownTable(
      ['database', 'mails/s', 'p50 ms', 'p95 ms', 'max ms', 'missing'],
      results.map((r) => [
        r.database,
        r.mailsPerSecond.toFixed(0),
        percentile(r.latencies, 0.5).toFixed(0),
        percentile(r.latencies, 0.95).toFixed(0),
        (r.latencies.at(-1) ?? Number.NaN).toFixed(0),
        String(r.missing),
      ]),
    ),
  );
  if (results.some((r) => r.missing > 0)) process.exitCode = 1;
}

await main();
