import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser, TEST_ADMIN, sessionOf, type Account, ADMIN_ENV, createTicket } from '../../test/factories.js';
import { sentStatements } from '../../test/sentStatements.js';
import { startTestServer, type TestServer } from '../../test/server.js';

/**
 * One process keeps a repeated read's answer until a write could have changed it, seen from the
 * statements that reach the driver: a kept answer runs none.
 */
const CELLS: Array<{ memo: 'on' | 'off'; env: Record<string, string> }> = [
  { memo: 'on', env: {} },
  { memo: 'off', env: { READ_MEMO: 'off' } },
];

describe.each(CELLS)('answers kept on one process, READ_MEMO $memo', ({ memo, env }) => {
  let t: TestServer;
  let agent: Account, owner: Account, admin: Account;
  let ticketId: number;
  let sent: { texts: string[] };

  beforeAll(async () => {
    t = await startTestServer({ ...ADMIN_ENV, ...env });
    // Counts what drizzle sends to the driver, outside transactions: every read of these requests,
    // planned once per connection or not (on PGlite both are one client).
    sent = sentStatements(t.server.database.db, t.server.database.planned);
    admin = await sessionOf(t, TEST_ADMIN.email, TEST_ADMIN.password);
    agent = await insertUser(t, { role: 'agent', name: 'Agent Kept' });
    owner = await insertUser(t, { name: 'Owner Kept' });
    ticketId = (await createTicket(t.api, owner.token, { title: 'Scanner ignores the network' })).id;
  });
  afterAll(() => t.close());

  /** Statements run by one request. */
  const ran = async (request: () => Promise<{ status: number }>) => {
    const before = sent.texts.length;
    expect((await request()).status).toBeLessThan(300);
    return sent.texts.length - before;
  };
  const list = () => t.api.get('/tickets?limit=25', { token: agent.token });

  it(
    memo === 'on' ? 'serves the list again without a statement, through a write to another table' : 'reads the list every time',
    async () => {
      await ran(list);
      const again = await ran(list);
      await ran(() =>
        t.api.post('/knowledge', { title: 'Network scanners', content: 'Check the scanner profile first.' }, { token: admin.token }),
      );
      const afterArticle = await ran(list);
      if (memo === 'on') expect([again, afterArticle]).toEqual([0, 0]);
      else expect(Math.min(again, afterArticle)).toBeGreaterThan(0);
    },
  );

  it('reads the list afresh after a write to a ticket, and shows it', async () => {
    await ran(list);
    expect((await t.api.put(`/tickets/${ticketId}`, { priority: 'urgent' }, { token: agent.token })).status).toBe(200);
    expect(await ran(list)).toBeGreaterThan(0);
    const res = await list();
    expect(res.body.tickets.find((x: { id: number }) => x.id === ticketId)?.priority).toBe('urgent');
  });
  it('reads a list page without a count of its own: the session row is kept and the count comes with the page', async () => {
    const open = () => t.api.get('/tickets?limit=10&status=open', { token: agent.token });
    const requested = () => t.api.get(`/tickets?requester=${encodeURIComponent(owner.user.email)}`, { token: agent.token });
    const openByPriority = () => t.api.get('/tickets?limit=10&status=open&sort=-priority', { token: agent.token });
    // Beside a planned-once pool a page is its ids with the count, then its rows by one planned text
    // (tickets.ts#readPage), whether the list is planned once (the open queue's, a requester's) or
    // for its values (a status by priority); on PGlite one statement.
    const { db, planned } = t.server.database;
    for (const page of [open, requested, openByPriority]) {
      await ran(page);
      // With the memo on, the page itself is kept too.
      expect(await ran(page)).toBe(memo === 'on' ? 0 : planned === db ? 1 : 2);
    }
    expect((await requested()).body).toMatchObject({ total: 1, tickets: [{ id: ticketId }] });
    // The requester panel's one text stays one statement beside the account's row.
    const panel = () => t.api.get(`/users/${owner.user.id}/tickets?limit=10`, { token: agent.token });
    await ran(panel);
    expect(await ran(panel)).toBe(2);
  });

  it('refuses a session on its next request once its account is deleted, though the row was kept', async () => {
    const leaving = await insertUser(t, { role: 'agent', name: 'Agent Leaving' });
    expect((await t.api.get('/tickets', { token: leaving.token })).status).toBe(200);
    const removed = await t.api.delete(`/users/${leaving.user.id}`, { token: admin.token });
    expect(removed.status).toBe(200);
    const after = await t.api.get('/tickets', { token: leaving.token });
    expect(after.status).toBe(401);
  });
});
