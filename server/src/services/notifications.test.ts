import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTicket, insertUser, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { insertNotifications } from '../db/queries/notifications.js';

describe('the bell read (GET /notifications)', () => {
  let t: TestServer;
  let agent: Account, owner: Account;

  beforeAll(async () => {
    t = await startTestServer();
    agent = await insertUser(t, { role: 'agent', name: 'Bell Bea' });
    owner = await insertUser(t, { name: 'Owner Olive' });
  });
  afterAll(async () => {
    await ifSetUp(t)?.close();
  });

  it('answers a list and an unread count that agree while notifications are being written', async () => {
    const ticket = await createTicket(t.api, owner.token);
    const row = { userId: agent.user.id, type: 'mention' as const, ticketId: ticket.id, byId: owner.user.id, excerpt: 'Ping' };
    const disagreements: string[] = [];
    // Fewer than a page of notifications, all unread: the count must be the list's length.
    for (let i = 0; i < 40; i++) {
      const [read] = await Promise.all([
        t.api.get('/notifications', { token: agent.token }),
        insertNotifications(t.server.database.db, [row]),
      ]);
      expect(read.status).toBe(200);
      const { notifications, unread } = read.body as { notifications: unknown[]; unread: number };
      if (notifications.length !== unread) disagreements.push(`${notifications.length} listed, ${unread} unread`);
    }
    expect(disagreements).toEqual([]);
  });
});
