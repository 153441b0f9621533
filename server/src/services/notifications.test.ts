import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTicket, insertUser, type Account } from '../../test/factories.js';
import { ifSetUp } from '../../test/hooks.js';
import { startTestServer, type TestServer } from '../../test/server.js';
import { LIMITS } from '@helpdesk/protocol';
import { insertNotifications } from '../db/queries/notifications.js';
import { excerptOf } from './notifications.js';

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

describe('excerptOf', () => {
  const max = LIMITS.notificationExcerpt;

  it('puts a text on one line and cuts it with an ellipsis at the limit', () => {
    expect(excerptOf('  Printer\n\n  on fire\t ')).toBe('Printer on fire');
    expect(excerptOf('a'.repeat(max))).toBe('a'.repeat(max));
    expect(excerptOf('a'.repeat(max + 1))).toBe(`${'a'.repeat(max - 1)}…`);
  });

  it('never cuts an emoji in half', () => {
    for (const lead of [max - 3, max - 2, max - 1]) {
      const excerpt = excerptOf(`${'a'.repeat(lead)}${'😀'.repeat(5)}`);
      expect(excerpt.endsWith('…')).toBe(true);
      expect(excerpt.length).toBeLessThanOrEqual(max);
      // No high surrogate left without its low one.
      expect(excerpt).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    }
  });

  it('answers as the whole text collapsed would, however its whitespace runs', () => {
    const word = (i: number) => `w${i}`;
    const texts = [
      Array.from({ length: 2_000 }, (_, i) => word(i)).join(' '),
      ' '.repeat(max * 10) + 'late start',
      `${'x '.repeat(max / 2)}${' \n'.repeat(max * 5)}tail words`,
      `${'y'.repeat(max - 5)}${'\t'.repeat(max * 9)}${'z'.repeat(10)}`,
    ];
    for (const text of texts) {
      const line = text.replace(/\s+/g, ' ').trim();
      expect(excerptOf(text)).toBe(line.length <= max ? line : `${line.slice(0, max - 1)}…`);
    }
  });
});
