import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteFolder } from '../test/database.js';
import { createApiClient } from '../test/http.js';
import { freePort, startServerProcess } from '../test/serverProcess.js';

/** The JSON log lines of a process's output (anything else it printed left out). */
const logLines = (output: string) =>
  output
    .trim()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string });

/** The output of a start expected to fail; one that starts after all is stopped and says so. */
const failedStart = (env: Record<string, string>) =>
  startServerProcess(env).then(
    (started) => started.stop().then(() => 'started'),
    (error: unknown) => String(error),
  );

const FATAL = 60;

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
    const first = await startServerProcess(env);
    expect(first.output()).toContain('Demo sign-in (admin): admin@helpdesk.local / Admin123!');
    // The banner (URL, then the demo sign-ins) is the last thing printed before any request.
    const startup = logLines(first.output()).map((line) => line.msg);
    const listening = startup.findIndex((msg) => msg.includes('listening on port'));
    expect(listening).toBeGreaterThan(0);
    expect(startup.slice(listening + 1).every((msg) => msg.startsWith('Demo sign-in') || msg === 'request')).toBe(true);
    expect(startup.slice(listening + 1).filter((msg) => msg.startsWith('Demo sign-in'))).toHaveLength(4);
    expect((await api.get('/health')).body).toEqual({ status: 'ok', db: 'ok' });
    const login = await api.post('/auth/login', { email: 'agent@helpdesk.local', password: 'Agent123!' });
    expect(login.status).toBe(200);
    const before = await api.get('/tickets/stats', { token: login.body.token });
    expect(before.body.stats.total).toBeGreaterThan(0);
    const created = await api.post(
      '/tickets',
      { title: 'Written before restart', description: 'Must survive the restart.' },
      { token: login.body.token },
    );
    expect(created.status).toBe(201);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('server stopped');

    const second = await startServerProcess(env);
    try {
      expect(second.output()).not.toContain('demo data seeded');
      // Same generated JWT secret from DATA_DIR: the old session still works.
      const after = await api.get('/tickets/stats', { token: login.body.token });
      expect(after.status).toBe(200);
      expect(after.body.stats.total).toBe((before.body.stats.total as number) + 1);
      expect((await api.get(`/tickets/${created.body.ticket.id}`, { token: login.body.token })).body.ticket.title).toBe(
        'Written before restart',
      );
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  }, 120_000);

  it('stops at once with one line naming a wrong setting, and no stack trace', async () => {
    const output = await failedStart({ DATA_DIR: dataDir, PORT: '0', REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(logLines(output)).toEqual([
      expect.objectContaining({
        level: FATAL,
        msg: 'Invalid settings: JWT_SECRET: is required when REDIS_URL is set, so every server process signs and verifies the same tokens',
      }),
    ]);
    expect(output).not.toMatch(/^\s+at /m);
  });

  it('refuses a second process on the same embedded database, naming the first', async () => {
    const ownDir = await mkdtemp(path.join(tmpdir(), 'helpdesk-main-twice-'));
    // Laid migrated (the first test starts on an empty folder): this one is about the lock.
    await pgliteFolder(path.join(ownDir, 'pglite'));
    const first = await startServerProcess({ DATA_DIR: ownDir, PORT: '0' });
    try {
      const output = await failedStart({ DATA_DIR: ownDir, PORT: '0' });
      expect(logLines(output).filter((line) => line.level === FATAL)).toEqual([
        expect.objectContaining({
          msg: `DATA_DIR ${ownDir} is in use by another HelpDesk process (pid ${first.child.pid}): the embedded database serves one process; stop that one, give this one its own DATA_DIR, or set DATABASE_URL to share PostgreSQL`,
        }),
      ]);
      // The first one goes on serving, and a start after it stopped takes the folder again.
      expect((await createApiClient(first.url).get('/health')).status).toBe(200);
      expect(await first.stop()).toBe(0);
      const again = await startServerProcess({ DATA_DIR: ownDir, PORT: '0' });
      expect(await again.stop()).toBe(0);
    } finally {
      await first.stop();
      await rm(ownDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('says which setting to change when its port is taken', async () => {
    // Whatever holds the port answers the start's health probe with a 503 at once.
    const holder = createHttpServer((_request, response) => response.writeHead(503).end()).listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const port = (holder.address() as AddressInfo).port;
    const ownDir = await mkdtemp(path.join(tmpdir(), 'helpdesk-main-port-'));
    await pgliteFolder(path.join(ownDir, 'pglite'));
    try {
      const output = await failedStart({ DATA_DIR: ownDir, PORT: String(port), HOST: '127.0.0.1' });
      expect(logLines(output).filter((line) => line.level === FATAL)).toEqual([
        expect.objectContaining({
          msg: `127.0.0.1 port ${port} is already in use: stop what listens there, or set PORT to a free port`,
        }),
      ]);
      expect(output).not.toMatch(/^\s+at /m);
    } finally {
      holder.close();
      await rm(ownDir, { recursive: true, force: true });
    }
  }, 60_000);
});
