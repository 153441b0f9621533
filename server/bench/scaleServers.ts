/**
 * The processes a cell of the scale bench measures: one or two servers (src/main.ts bundled, LOG_LEVEL=warn)
 * on the data set, with the memo on or off, and as many bare Koa floors serving the list's bytes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort, startServerProcess, startServerProcesses, type ServerProcess } from '../test/serverProcess.js';
import type { Place } from './scaleDataset.js';
import { BENCH_JWT_SECRET, BENCH_METRICS_TOKEN } from './servers.js';
import { HOST, KIND, REDIS_URL } from './scaleSettings.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.resolve(here, '..');

export interface Cell {
  memo: 'on' | 'off';
  processes: number;
  prepared: 'on' | 'off';
}

/** Whether the server measured has API tokens (the bench also runs against builds from before them). */
export const HAS_API_TOKENS = existsSync(path.join(serverDir, 'src/routes/apiTokens.ts'));

/**
 * The server settings that give a cell, or why this build cannot run it. A build with READ_MEMO
 * turns the memo off with it; one without turns it off with REDIS_URL. A build that does not share
 * the memo's versions through Redis (scaleout/sharedVersions.ts) would serve stale answers from two
 * processes with the memo on, so that cell is not run there.
 */
export function cellEnv(cell: Cell, redisKeyPrefix: string): Record<string, string> | string {
  const env = memoEnv(cell, redisKeyPrefix);
  return typeof env === 'string' || cell.prepared === 'on' ? env : { ...env, PREPARED_STATEMENTS: 'off' };
}

function memoEnv(cell: Cell, redisKeyPrefix: string): Record<string, string> | string {
  const settings = readFileSync(path.join(serverDir, 'src/settings.ts'), 'utf8');
  const memoSwitch = settings.includes('READ_MEMO');
  const sharedMemo = existsSync(path.join(serverDir, 'src/scaleout/sharedVersions.ts'));
  const redis = { REDIS_URL, REDIS_KEY_PREFIX: redisKeyPrefix };
  if (cell.memo === 'off') {
    if (memoSwitch) return { READ_MEMO: 'off', ...(cell.processes > 1 && redis) };
    return redis;
  }
  if (cell.processes > 1 && !sharedMemo) return 'memo on with several processes needs the memo shared through Redis (not in this build)';
  // One process is the single-process deployment (no Redis); two share Redis as a deployment of several does.
  return cell.processes > 1 ? redis : {};
}

export interface Servers {
  urls: string[];
  processes: ServerProcess[];
  stop(): Promise<void>;
}

export async function startServers(place: Place, count: number, env: Record<string, string>): Promise<Servers> {
  const common = {
    ...env,
    HOST,
    SEED_DEMO: 'false',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    JWT_SECRET: BENCH_JWT_SECRET,
    METRICS_TOKEN: BENCH_METRICS_TOKEN,
    ...(process.env.BENCH_CPU_PROF && { BENCH_CPU_PROF: process.env.BENCH_CPU_PROF }),
  };
  if (KIND === 'pglite') {
    if (count !== 1) throw new Error('PGlite is embedded in one process: BENCH_PROCESSES must be 1');
    const server = await startServerProcess({ ...place.serverEnv, ...common, PORT: String(await freePort()) }, 180_000);
    return {
      urls: [server.url],
      processes: [server],
      stop: async () => {
        await server.stop();
      },
    };
  }
  const { processes, stop } = await startServerProcesses(count, { ...place.serverEnv, ...common }, { fixedPorts: true });
  return { urls: processes.map((p) => p.url), processes, stop };
}

export interface Floors {
  urls: string[];
  children: ChildProcess[];
  stop(): Promise<void>;
}

/** `count` bare Koa processes answering GET /bare with `body` (bench/scaleFloor.ts). */
export async function startFloors(body: Buffer, count: number, dir: string): Promise<Floors> {
  const file = path.join(dir, 'floor-body.json');
  await writeFile(file, body);
  const started = await Promise.all(
    Array.from({ length: count }, async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'scaleFloor.ts'), file], {
        cwd: serverDir,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const lines = createInterface({ input: child.stdout });
      const port = await new Promise<number>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`floor exited with ${code}`)));
        lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
      });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      return { url: `http://${HOST}:${port}`, child, exited };
    }),
  );
  return {
    urls: started.map((s) => s.url),
    children: started.map((s) => s.child),
    async stop() {
      for (const s of started) if (s.child.exitCode === null) s.child.kill('SIGTERM');
      await Promise.all(started.map((s) => s.exited));
    },
  };
}

/** The server's warnings and errors (LOG_LEVEL=warn), counted by message: why a call answered 5xx. */
export function summariseLog(output: string): string[] {
  const counts = new Map<string, number>();
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; status?: number; err?: { message?: string; stack?: string } };
      if ((entry.level ?? 0) < 40) continue;
      // The logged error is the failed query; what made it fail is the last "caused by" of its stack.
      const cause = entry.err?.stack?.split('\ncaused by: ').slice(1).at(-1)?.split('\n')[0];
      const what = [
        entry.status && `status ${entry.status}`,
        entry.err?.message?.split('\n')[0]?.slice(0, 140),
        cause && `caused by ${cause.slice(0, 140)}`,
      ];
      const key = [entry.msg ?? '', ...what].filter(Boolean).join(' | ');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    } catch {
      // not a log line
    }
  }
  return [...counts].map(([message, n]) => `${n} × ${message}`);
}
