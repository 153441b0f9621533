/**
 * Scale benchmark: the real server on a production-sized data set (default 1,000,000 tickets, 20,000
 * users, 2,000,000 comments, their history, notifications and reads, eight saved views per staff
 * member, 200 knowledge articles), asked distinct questions, the way a team asks them, by many
 * accounts; next to a bare Koa floor serving the same bytes as the list, in the same run.
 *
 *   npm run bench:scale                                             # PostgreSQL, 1,000,000 tickets
 *   BENCH_KEEP=1 npm run bench:scale                                # keep the data set for the next run
 *   BENCH_DB=pglite BENCH_TICKETS=100000 npm run bench:scale        # embedded PGlite (one process)
 *   BENCH_MEMO=off BENCH_PROCESSES=2 BENCH_WRITES=2 npm run bench:scale   # one cell of the matrix
 *   BENCH_EXPLAIN=5 BENCH_EXPLAIN_FILE=/tmp/explain.txt npm run bench:scale
 *
 * Data set (scaleDataset.ts). Built through the app's migrations, filled with set-based SQL, indexes
 * recreated, VACUUM ANALYZE. Ticket titles and descriptions are drawn from a vocabulary of thousands
 * of words with a long tail (scaleVocabulary.ts: P(rank r) ~ 1/r), a third name an error code or asset
 * tag; ~12 % mention "printer" and 0.01 % a rare word, as in earlier data sets. Statuses mostly
 * resolved/closed (the newest 2 % mostly open), priorities skewed to medium, owners and agents
 * skewed, comments uniform plus busy tickets plus five threads of 1,000–2,500 comments. Version 2 of
 * the data set: database helpdesk_scale_v2_<tickets> on BENCH_DATABASE_URL's server (default
 * postgres://postgres@127.0.0.1:5432/postgres), or for PGlite the directory BENCH_KEEP names, else
 * <tmp>/helpdesk_scale_pglite_v2_<tickets>. Removed at the end unless BENCH_KEEP is set; one found
 * already (its marker table says what it holds) is reused and left alone.
 *
 * Questions (scaleQuestions.ts). Each call is a generator: every request a new combination of
 * filters, sorts, pages, assignee, search words (with the vocabulary's long tail and letter case),
 * asked by one of BENCH_AGENTS agents or BENCH_USER_ACCOUNTS users (tokens signed with the servers'
 * secret), never the same URL and token twice in a row. The table's "repeated" column is the share
 * of requests the same account had asked before in the same run (kept answers are per caller).
 *
 * Matrix. A cell is memo on or off (BENCH_MEMO, default off,on), one or two server processes
 * sharing PostgreSQL and Redis (BENCH_PROCESSES, default 1,2; 1 on PGlite; requests alternate
 * between them), and a writer changing random tickets' priority through the API (BENCH_WRITES,
 * default 2,10 a second; the rate reached is printed). In each cell, for every call: a slice of
 * the floor (BENCH_FLOOR_SECONDS, default 1; one bare Koa process per server process, serving the
 * list's bytes), then the call at BENCH_CONNECTIONS (default 10) for about BENCH_SECONDS (default
 * 2); the machine is shared, so each call's share is of the floor measured just before it. A
 * BENCH_WARMUP (default 2 s) of mixed questions follows each server start. The run's length is
 * about cells × calls × (floor + seconds + ~1 s); BENCH_MEMO, BENCH_PROCESSES, BENCH_WRITES and
 * BENCH_ONLY shrink the matrix. BENCH_PREPARED (default on; `on,off` adds cells with
 * PREPARED_STATEMENTS=off) compares reads planned once per connection with reads planned every time.
 *
 * Load (scaleLoad.ts): autocannon, each request built anew by the call's generator, every response
 * time kept. A 0.5 s slice sizes the call, then exactly that many requests are sent and every
 * answer waited for, so no slow request is dropped at the end; one over BENCH_TIMEOUT s (10) counts
 * as a timeout at that time. The bench waits for the database to go idle between calls.
 *
 * Other knobs: BENCH_TICKETS (1000000), BENCH_USERS (20000), BENCH_COMMENTS (2 × tickets),
 * BENCH_ARTICLES (200), BENCH_SEED (42: the questions' random sequence), BENCH_WARM (1: the data set read into the OS
 * cache before the cells, as a running server has it; 0 measures it cold), BENCH_ONLY (substrings
 * separated by `|`: only the calls whose name contains one), BENCH_EXPLAIN (0; n = EXPLAIN (ANALYZE, BUFFERS) the
 * statements of the slowest question of each of the n slowest calls) and BENCH_EXPLAIN_FILE,
 * BENCH_REDIS_URL (redis://127.0.0.1:6379), BENCH_LOG_LEVEL (warn), BENCH_SERIAL (0; n = after each
 * call's load, n more of its questions asked one at a time on one connection, their mean, p50 and p95
 * printed: a question's cost without a queue, steadier on a noisy machine), BENCH_CPU_PROF (a folder:
 * each server process writes a V8 CPU profile there when it stops; open it in Chrome's DevTools).
 *
 * Output: a table per cell as it finishes (p50/p95/p99, req/s, share of the floor's req/s, refused
 * answers, repeats, bytes, writes reached), the machine's CPU pressure (others share it), then the
 * whole matrix, and last the line `worst p95 of distinct questions: <ms> ms (<call>, <cell>)`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createTokenService } from '../src/lib/tokens.js';
import { AGENT_IDS, USER_IDS, emailOf, pglitePlace, postgresPlace, prepare, type Place } from './scaleDataset.js';
import { explainSlowest } from './scaleExplain.js';
import { benchTokens } from './scaleTokens.js';
import {
  load,
  mergeRuns,
  pgliteIdle,
  postgresIdle,
  send,
  serial,
  startWriter,
  target,
  type IdleWait,
  type Run,
  type Target,
} from './scaleLoad.js';
import { calls as allCalls, type Call, type Question } from './scaleQuestions.js';
import { cellTable, matrixTable, worst, type CellResult } from './scaleReport.js';
import { cellEnv, HAS_API_TOKENS, startFloors, startServers, summariseLog, type Floors, type Servers } from './scaleServers.js';
import {
  ADMIN_URL,
  ADMINS,
  ARTICLES,
  COMMENTS,
  CONNECTIONS,
  DATASET_NAME,
  EXPLAIN,
  EXPLAIN_FILE,
  FLOOR_SECONDS,
  KEEP,
  KIND,
  MEMO,
  PREPARED,
  ms,
  ONLY,
  phase,
  phases,
  PROCESSES,
  SECONDS,
  SEED,
  SERIAL,
  STAFF,
  TICKETS,
  USERS,
  WARMUP,
  WRITE_RATES,
} from './scaleSettings.js';
import { BENCH_JWT_SECRET } from './servers.js';
import { machine, requirePostgres, waitMicros } from './support.js';
import { seededRandom } from './scaleVocabulary.js';

async function signTokens(): Promise<Map<number, string>> {
  const tokens = createTokenService(BENCH_JWT_SECRET, 24 * 3600);
  const signed = new Map<number, string>();
  // Every seeded account has token_version 0.
  for (const id of [...AGENT_IDS, ...USER_IDS]) signed.set(id, await tokens.sign(id, 0));
  return signed;
}

/** Whether GET /api/tickets?requester= filters (an unknown parameter is ignored: the total would not change). */
async function hasRequesterFilter(to: Target, headers: Record<string, string>, requester: number): Promise<boolean> {
  const all = await send(to, 'GET', '/api/tickets', headers);
  const filtered = await send(to, 'GET', `/api/tickets?requester=${encodeURIComponent(emailOf(requester))}`, headers);
  if (filtered.status !== 200) return false;
  const total = (a: { body: Buffer }) => (JSON.parse(a.body.toString()) as { total: number }).total;
  return total(filtered) < total(all);
}

async function main(): Promise<number> {
  const runStarted = performance.now();
  if (KIND === 'postgres') await requirePostgres(ADMIN_URL, 'BENCH_DATABASE_URL');
  const pgliteDir =
    KIND === 'pglite'
      ? KEEP && KEEP !== '1' && KEEP !== 'true'
        ? path.resolve(KEEP)
        : path.join(os.tmpdir(), DATASET_NAME.replace('helpdesk_scale_', 'helpdesk_scale_pglite_'))
      : undefined;
  const place: Place = KIND === 'postgres' ? postgresPlace() : pglitePlace(pgliteDir!);
  console.log(`scale bench: ${place.label} | ${machine()}`);
  console.log(
    `data set: ${TICKETS} tickets, ${USERS} users (${STAFF} staff, ${ADMINS} admins), ${COMMENTS} comments, ${ARTICLES} articles`,
  );
  const { facts, built, version } = await prepare(place);
  console.log(`${KIND === 'postgres' ? 'PostgreSQL' : 'PGlite, PostgreSQL'} ${version}; ${facts.sizes}`);
  console.log(
    `questions by ${AGENT_IDS.length} agents and ${USER_IDS.length} users; longest threads ${facts.heavy.map((h) => `#${h.id} (${h.comments})`).join(', ')}; busiest asking agent #${facts.busiestAgent.id} has ${facts.busiestAgent.assigned} assigned; heaviest asking requester #${facts.heaviestRequester.id} has ${facts.heaviestRequester.tickets}`,
  );
  const tokens = await signTokens();
  const headersOf = (q: Question): Record<string, string> => {
    const bearer = q.bearer ?? (q.userId ? tokens.get(q.userId) : undefined);
    return bearer ? { authorization: `Bearer ${bearer}` } : {};
  };
  const random = seededRandom(SEED);

  const scratch = await mkdtemp(path.join(os.tmpdir(), 'helpdesk-scale-'));
  let servers: Servers | undefined;
  let floors: Floors | undefined;
  let pgIdle: ReturnType<typeof postgresIdle> | undefined;
  const onSignal = () => {
    for (const p of servers?.processes ?? []) p.child.kill('SIGKILL');
    for (const c of floors?.children ?? []) c.kill('SIGKILL');
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const cells: CellResult[] = [];
  const skipped: string[] = [];
  const serverLog: string[] = [];
  const slowest = new Map<string, { ms: number; question: Question }>();
  let explainText: string | undefined;
  const cpuBefore = waitMicros('cpu');
  const ioBefore = waitMicros('io');
  try {
    let list: Call[] | undefined;
    for (const [memo, prepared] of MEMO.flatMap((m) => PREPARED.map((p) => [m, p] as const))) {
      for (const processes of PROCESSES) {
        const env = cellEnv({ memo, processes, prepared }, `bench-scale-${process.pid}-${memo}-${prepared}-${processes}:`);
        const group = `memo ${memo}${prepared === 'off' ? ', unprepared' : ''}, ${processes} process${processes > 1 ? 'es' : ''}`;
        if (typeof env === 'string') {
          skipped.push(`${group}: ${env}`);
          console.log(`\n! skipped ${group}: ${env}`);
          continue;
        }
        servers = await phase(`start ${group}`, () => startServers(place, processes, env));
        const targets = servers.urls.map((u) => target(u, CONNECTIONS));
        const agentHeaders = headersOf({ path: '', userId: AGENT_IDS[0] });
        const first = await send(targets[0]!, 'GET', '/api/tickets', agentHeaders);
        if (first.status !== 200) throw new Error(`list answered ${first.status}: ${first.body.toString()}`);
        const { total } = JSON.parse(first.body.toString()) as { total: number };
        if (total !== TICKETS) throw new Error(`the list reports ${total} tickets, expected ${TICKETS}`);
        if (!list) {
          const requesterFilter = await hasRequesterFilter(targets[0]!, agentHeaders, USER_IDS[0]!);
          if (!requesterFilter)
            console.log("GET /api/tickets?requester= does not filter in this build: a requester's own list stands in for it");
          const tokens = HAS_API_TOKENS ? await benchTokens(targets[0]!, (agent) => headersOf({ path: '', userId: agent }), AGENT_IDS) : [];
          list = allCalls({ facts, random, requesterFilter, tokenSecrets: tokens }).filter(
            (c) => !ONLY || ONLY.split('|').some((part) => c.name.includes(part)),
          );
        }
        const idle: IdleWait =
          KIND === 'postgres' ? (pgIdle = postgresIdle((place.target as { url: string }).url)).wait : pgliteIdle(servers.urls[0]!);
        floors = await startFloors(first.body, processes, scratch);
        const floorTargets = floors.urls.map((u) => target(u, CONNECTIONS));
        if (WARMUP > 0) {
          let i = 0;
          const mixed = () => list![i++ % list!.length]!.next();
          await phase(`warm-up ${group}`, () => load(targets, mixed, headersOf, CONNECTIONS, WARMUP));
          await idle();
        }
        for (const writes of WRITE_RATES) {
          const label = `${group}, ${writes} writes/s`;
          console.log(`\n${label}: ${CONNECTIONS} connections, ${SECONDS} s per call`);
          const writer = startWriter(
            targets,
            facts.writable,
            () => headersOf({ path: '', userId: AGENT_IDS[Math.floor(random() * AGENT_IDS.length)] }),
            writes,
            random,
          );
          const floorSlices: Run[] = [];
          const cell: CellResult = { label, floor: mergeRuns([]), calls: [], writes: { asked: writes, reached: 0, failed: 0 } };
          const cellStarted = { at: performance.now(), cpu: waitMicros('cpu'), io: waitMicros('io') };
          await phase(`measure ${label}`, async () => {
            for (const call of list!) {
              await idle();
              const floor = await load(
                floorTargets,
                () => ({ path: '/bare' }),
                () => ({}),
                CONNECTIONS,
                FLOOR_SECONDS,
                { timed: true },
              );
              floorSlices.push(floor);
              writer.mark();
              const run = await load(targets, () => call.next(), headersOf, CONNECTIONS, SECONDS);
              const w = writer.mark();
              cell.calls.push({ call, run, floor, writesPerSecond: w.perSecond });
              console.log(
                `  ${call.name}: p50 ${ms(run.p50)} p95 ${ms(run.p95)} ms, ${run.rps.toFixed(0)}/s (${((run.rps / floor.rps) * 100).toFixed(1)} % of the floor's ${floor.rps.toFixed(0)}/s), n=${run.n}, writes ${w.perSecond.toFixed(1)}/s`,
              );
              if (SERIAL > 0) {
                const one = await serial(targets[0]!, () => call.next(), headersOf, SERIAL);
                console.log(
                  `    one at a time: mean ${ms(one.mean)} p50 ${ms(one.p50)} p95 ${ms(one.p95)} ms, n=${SERIAL}${one.refused ? `, ${one.refused} refused` : ''}`,
                );
              }
              const known = slowest.get(call.name);
              if (run.slowest && (!known || run.slowest.ms > known.ms)) slowest.set(call.name, run.slowest);
            }
          });
          const w = await writer.stop();
          cell.floor = mergeRuns(floorSlices);
          const perSecond = (before: number | undefined, now: number | undefined) =>
            before === undefined || now === undefined ? undefined : (now - before) / 1e6 / ((performance.now() - cellStarted.at) / 1000);
          cell.cpuWait = perSecond(cellStarted.cpu, waitMicros('cpu'));
          cell.ioWait = perSecond(cellStarted.io, waitMicros('io'));
          cell.writes = { asked: writes, reached: w.perSecond, failed: w.failed };
          cells.push(cell);
          console.log(
            `\n${label}: writes reached ${w.perSecond.toFixed(1)}/s of ${writes} (${w.done} done, ${w.failed} failed); tasks waited ${cell.cpuWait?.toFixed(2) ?? '-'} s for a CPU and ${cell.ioWait?.toFixed(2) ?? '-'} s for the disk per second`,
          );
          console.log(cellTable(cell));
        }
        await floors.stop();
        floors = undefined;
        await pgIdle?.close();
        pgIdle = undefined;
        await servers.stop();
        for (const [i, p] of servers.processes.entries())
          for (const line of summariseLog(p.output())) serverLog.push(`${group}, process ${i + 1}: ${line}`);
        servers = undefined;
      }
    }
    if (EXPLAIN > 0 && list) {
      const ranked = cells
        .flatMap((c) => c.calls)
        .sort((a, b) => b.run.p95 - a.run.p95)
        .map((c) => c.call.name)
        .filter((name, i, all) => all.indexOf(name) === i)
        .slice(0, EXPLAIN);
      explainText = await phase(`explain ${ranked.length} call(s)`, () =>
        explainSlowest(
          place,
          ranked.flatMap((name) => {
            const found = slowest.get(name);
            return found ? [{ name, ...found }] : [];
          }),
          tokens,
          version,
        ),
      );
      if (EXPLAIN_FILE) {
        await writeFile(EXPLAIN_FILE, `${explainText}\n`);
        console.log(`EXPLAIN output written to ${EXPLAIN_FILE}`);
      } else console.log(`\n${explainText}\n`);
    }
  } finally {
    await floors?.stop();
    await pgIdle?.close().catch(() => undefined);
    await servers?.stop();
    await rm(scratch, { recursive: true, force: true });
    if (built && !KEEP) await phase('remove data set', () => place.remove());
    else console.log(`data set kept: ${place.label}`);
  }
  const cpuAfter = waitMicros('cpu');
  const ioAfter = waitMicros('io');

  console.log(
    `\n${TICKETS} tickets on ${KIND === 'postgres' ? `PostgreSQL ${version}` : `PGlite (PostgreSQL ${version})`}; servers: src/main.ts bundled as npm start runs it (through tsx when profiled), each in its own process; ${CONNECTIONS} connections, ${SECONDS} s per call; ${machine()}`,
  );
  if (cpuBefore !== undefined && cpuAfter !== undefined)
    console.log(
      `machine CPU pressure: tasks waited ${((cpuAfter - cpuBefore) / 1e6).toFixed(1)} s for a CPU during the run (others share it)`,
    );
  if (ioBefore !== undefined && ioAfter !== undefined)
    console.log(`machine disk pressure: tasks waited ${((ioAfter - ioBefore) / 1e6).toFixed(1)} s for the disk during the run`);
  console.log(matrixTable(cells));
  for (const line of skipped) console.log(`skipped: ${line}`);
  for (const line of serverLog) console.log(`server log: ${line}`);
  for (const cell of cells) {
    const listed = cell.calls.find((c) => c.call.name.startsWith('list: filters'));
    const other = worst([cell], (c) => c.kind === 'other');
    console.log(
      `${cell.label}: worst p95 ${ms(worst([cell])?.p95 ?? Number.NaN)} ms (${worst([cell])?.name ?? '-'}); not searches ${ms(other?.p95 ?? Number.NaN)} ms (${other?.name ?? '-'})${listed ? `; list ${((listed.run.rps / listed.floor.rps) * 100).toFixed(1)} % of the floor` : ''}`,
    );
  }
  console.log(
    `\nphases: ${phases.map((p) => `${p.name} ${p.seconds.toFixed(1)} s`).join('; ')}; total ${((performance.now() - runStarted) / 1000).toFixed(1)} s`,
  );
  const top = worst(cells);
  console.log(
    top
      ? `worst p95 of distinct questions: ${ms(top.p95)} ms (${top.name}, ${top.cell})`
      : 'worst p95 of distinct questions: - ms (no calls)',
  );
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
