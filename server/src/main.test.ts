import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../test/http.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts src/main.ts the way `npm start` runs the build: settings from the environment only. */
async function start(env: Record<string, string>): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 45_000;
  while (!output.includes('listening on port')) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => output, exited };
}

describe('main: the server process on the embedded database', () => {
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'helpdesk-main-'));
    env = { DATA_DIR: dataDir, PORT: String(await freePort()), LOG_LEVEL: 'info' };
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('seeds demo data, keeps it and its sessions across a restart, and stops cleanly on SIGTERM', async () => {
    const api = createApiClient(`http://127.0.0.1:${env.PORT}`);
    const first = await start(env);
    expect(first.output()).toContain('Demo sign-in (admin): admin@helpdesk.local / Admin123!');
    expect((await api.get('/health')).body).toEqual({ status: 'ok', db: 'ok' });
    const login = await api.post('/auth/login', { email: 'agent@helpdesk.local', password: 'Agent123!' });
    expect(login.status).toBe(200);
    const before = await api.get('/tickets/stats', { token: login.body.token });
    expect(before.body.stats.total).toBeGreaterThan(0);
    const created = await api.post('/tickets', { title: 'Written before restart', description: 'Must survive the restart.' }, { token: login.body.token });
    expect(created.status).toBe(201);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('server stopped');

    const second = await start(env);
    try {
      expect(second.output()).not.toContain('demo data seeded');
      // Same generated JWT secret from DATA_DIR: the old session still works.
      const after = await api.get('/tickets/stats', { token: login.body.token });
      expect(after.status).toBe(200);
      expect(after.body.stats.total).toBe(before.body.stats.total + 1);
      expect((await api.get(`/tickets/${created.body.ticket.id}`, { token: login.body.token })).body.ticket.title).toBe('Written before restart');
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  }, 120_000);
});
