import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { alive } from '../src/db/dataDirLock.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface ServerProcess {
  child: ChildProcess;
  /** http://127.0.0.1:<bound port> */
  url: string;
  output(): string;
  exited: Promise<number | null>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Keeps the tail of a chatty process's output, enough to explain a failure. */
const OUTPUT_LIMIT = 256 * 1024;

let bundled: Promise<string> | undefined;

const BUNDLE = /^process-(\d+)-[0-9a-f]+\.js(\.map)?$/;

/**
 * The server as `npm start` runs it, bundled by scripts/build.mjs from the source as it is now, once
 * per test process (half a second): a process then starts in about 2 s, where loading src/main.ts
 * through tsx took about 4 on a slow machine, and the suite starts dozens. The file is named for its
 * test process (workers build side by side) and sits in dist/ beside main.js, where the paths the
 * server reads relative to itself resolve the same. Test workers are killed rather than exit, so
 * each build first removes the bundles of processes that are gone.
 */
function serverBundle(): Promise<string> {
  bundled ??= (async () => {
    const dist = path.join(serverDir, 'dist');
    const gone = (await readdir(dist).catch(() => [])).filter((file) => {
      const pid = BUNDLE.exec(file)?.[1];
      return pid !== undefined && !alive(Number(pid));
    });
    await Promise.all(gone.map((file) => rm(path.join(dist, file), { force: true })));
    const name = `dist/process-${process.pid}-${randomBytes(4).toString('hex')}.js`;
    await promisify(execFile)(process.execPath, ['scripts/build.mjs', name], { cwd: serverDir });
    return name;
  })();
  return bundled;
}

/**
 * Starts the server in its own process the way `npm start` runs it (serverBundle): settings come from
 * the environment only. With PORT 0 the bound address is read from the "listening" line, which LOG_LEVEL
 * must then let through; with a fixed PORT the process is ready once /api/health answers 200.
 */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 45_000): Promise<ServerProcess> {
  // BENCH_CPU_PROF names a folder for a V8 CPU profile of the process, written when it stops; such a
  // process runs src/main.ts through tsx, so the profile names the source files.
  const profile = env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${env.BENCH_CPU_PROF}`] : [];
  const entry = env.BENCH_CPU_PROF ? ['--import', 'tsx', 'src/main.ts'] : [await serverBundle()];
  const child = spawn(process.execPath, [...profile, ...entry], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > OUTPUT_LIMIT) output = output.slice(-OUTPUT_LIMIT / 2);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + timeoutMs;
  const fixedPort = env.PORT && env.PORT !== '0' ? `http://127.0.0.1:${env.PORT}` : undefined;
  let url: string | undefined;
  while (!(url = fixedPort ? await healthy(fixedPort) : listeningUrl(output))) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    url,
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

async function healthy(url: string): Promise<string | undefined> {
  const response = await fetch(`${url}/api/health`).catch(() => undefined);
  return response?.status === 200 ? url : undefined;
}

function listeningUrl(output: string): string | undefined {
  const line = output.split('\n').find((l) => l.includes('listening on port'));
  if (!line) return undefined;
  try {
    return (JSON.parse(line) as { url?: string }).url;
  } catch {
    return undefined;
  }
}

/** A loopback port nobody listens on right now, for processes that need a fixed PORT. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcesses {
  processes: ServerProcess[];
  stop: () => Promise<void>;
}

/**
 * Several server processes started at the same moment with one environment (plus what `envOf` gives
 * each), each with a DATA_DIR of its own. With `fixedPorts` each gets a free PORT (ready on /api/health, so LOG_LEVEL may hide the
 * "listening" line); otherwise PORT 0. If one fails to start, the others are stopped.
 */
export async function startServerProcesses(
  count: number,
  env: Record<string, string>,
  options: { fixedPorts?: boolean; envOf?: (index: number) => Record<string, string> } = {},
): Promise<ServerProcesses> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'helpdesk-processes-'));
  const ports = options.fixedPorts ? await Promise.all(Array.from({ length: count }, () => freePort())) : Array<number>(count).fill(0);
  const started = await Promise.allSettled(
    ports.map((port, i) =>
      startServerProcess({ ...env, ...options.envOf?.(i), PORT: String(port), DATA_DIR: path.join(dataDir, `node-${i}`) }),
    ),
  );
  const processes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stop = async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await rm(dataDir, { recursive: true, force: true });
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { processes, stop };
}
