import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useOpenedDatabase } from '../../test/openedDatabase.js';
import { openDatabase } from './client.js';
import { literalLimit, nameStatements, NAMES_PER_CONNECTION } from './plannedStatements.js';
import { users } from './schema/index.js';

/**
 * A connection's `query` as node-postgres calls it: what each call was sent as, and the names closed
 * on the wire, in order. A statement is bound when sent (`dispatch: 'later'` holds them until `send`).
 */
function recordingClient({ capacity, dispatch = 'now' }: { capacity?: number; dispatch?: 'now' | 'later' } = {}) {
  const sent: Array<{ text: string; name?: string }> = [];
  const wire: string[] = [];
  const waiting: string[] = [];
  const connection = {
    parsedStatements: {} as Record<string, string>,
    bind: ({ statement }: { statement?: string }) => void wire.push(`bind ${statement}`),
    close: ({ name }: { name: string }) => void wire.push(`close ${name}`),
  };
  const client = {
    connection,
    query: (config: unknown, ..._values: unknown[]) => {
      const statement = config as { text: string; name?: string };
      sent.push(statement);
      if (typeof statement === 'object' && statement.name) {
        if (dispatch === 'now') connection.bind({ statement: statement.name });
        else waiting.push(statement.name);
      }
      return Promise.resolve({ rows: [] });
    },
  };
  nameStatements(client, capacity);
  const send = () => {
    for (const name of waiting.splice(0)) client.connection.bind({ statement: name });
  };
  return { client, sent, wire, send };
}

describe('statements planned once per connection', () => {
  it('sends a statement with values under a name drawn from its text, the same text under the same name', async () => {
    const { client, sent } = recordingClient();
    await client.query({ text: 'select * from tickets where id = $1' }, [1]);
    await client.query({ text: 'select * from tickets where id = $1' }, [2]);
    await client.query({ text: 'select * from tickets where user_id = $1', values: [3] });
    const [first, again, other] = sent;
    expect(first!.name).toMatch(/^p[\w-]{27}$/);
    expect(again!.name).toBe(first!.name);
    expect(other!.name).not.toBe(first!.name);
  });

  it('leaves a statement without values unnamed: it has nothing to plan generically', async () => {
    const { client, sent } = recordingClient();
    await client.query({ text: 'select 1' });
    await client.query('select 2');
    expect(sent.map((s) => (typeof s === 'object' ? s.name : undefined))).toEqual([undefined, undefined]);
  });

  it('refuses a LIMIT sent as a value, which a generic plan would take for a tenth of the table', () => {
    const { client, sent } = recordingClient();
    expect(() => client.query({ text: 'select id from tickets order by id desc limit $1' }, [15])).toThrow(/literalLimit/);
    expect(sent).toEqual([]);
  });

  it(`keeps ${NAMES_PER_CONNECTION} names on a connection, closing the least recently used past them`, async () => {
    const { client, sent, wire } = recordingClient();
    const ask = (i: number) => client.query({ text: `select ${i} where $1::int > 0` }, [1]);
    for (let i = 0; i < NAMES_PER_CONNECTION; i += 1) await ask(i);
    await ask(0); // used again: the most recent now, so 1 goes first
    await ask(NAMES_PER_CONNECTION);
    const nameOf = (i: number) => sent.find((s) => s.text === `select ${i} where $1::int > 0`)!.name;
    // Closed in the message of the statement that displaced it, before that one is bound.
    expect(wire.slice(-2)).toEqual([`close ${nameOf(1)}`, `bind ${nameOf(NAMES_PER_CONNECTION)}`]);
    expect(wire.filter((w) => w.startsWith('close'))).toHaveLength(1);
    await ask(0);
    expect(sent.at(-1)!.name).toBe(nameOf(0));
  });

  it('closes a displaced name only after the statements queued under it, and never reuses it before', () => {
    const { client, sent, wire, send } = recordingClient({ capacity: 1, dispatch: 'later' });
    const ask = (i: number) => void client.query({ text: `select ${i} where $1::int > 0` }, [1]);
    ask(1);
    ask(2); // displaces 1's name
    ask(1); // displaces 2's; 1's is not closed yet, so 1 comes back under a new name
    const [one, two, oneAgain] = sent.map((s) => s.name!);
    expect(oneAgain).not.toBe(one);
    send();
    expect(wire).toEqual([`bind ${one}`, `close ${one}`, `bind ${two}`, `close ${two}`, `bind ${oneAgain}`]);
    ask(2); // 2's old name went out closed: free again
    expect(sent.at(-1)!.name).toBe(two);
  });

  it('refuses an OFFSET sent as a value too', () => {
    const { client } = recordingClient();
    expect(() => client.query({ text: 'select id from tickets order by id limit 16 offset $1' }, [15])).toThrow(/literalLimit/);
  });

  it('refuses a literal LIMIT that is not a row count', () => {
    expect(() => literalLimit(-1)).toThrow(RangeError);
    expect(() => literalLimit(1.5)).toThrow(RangeError);
  });
});

describe('the database handle for planned reads', () => {
  const opened = useOpenedDatabase();

  it('writes a literal LIMIT into the text of a query built with it', () => {
    const query = opened.database.planned.select({ id: users.id }).from(users).where(eq(users.id, 4)).limit(literalLimit(7)).toSQL();
    expect(query.sql).toMatch(/ limit 7$/);
    expect(query.params).toEqual([4]);
  });

  it('keeps a PostgreSQL connection to its most recent names, each statement answered right', async () => {
    // PGlite plans in its own process: there is no planned-once pool whose names could pile up.
    if (opened.target.kind !== 'postgres') {
      expect(opened.database.planned).toBe(opened.database.db);
      return;
    }
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: opened.target.url, max: 1, options: '-c plan_cache_mode=force_generic_plan' });
    pool.on('connect', (client) => nameStatements(client, 3));
    try {
      const texts = Array.from({ length: 6 }, (_, i) => `select $1::int + ${i} as n`);
      const order = [0, 1, 2, 3, 0, 4, 1, 5, 0, 2, 0, 3, 5, 5, 1, 0];
      const answers = await Promise.all(order.map((i, k) => pool.query<{ n: number }>({ text: texts[i]! }, [k])));
      expect(answers.map((a) => a.rows[0]!.n)).toEqual(order.map((i, k) => k + i));
      const { rows } = await pool.query<{ statement: string }>('select statement from pg_prepared_statements order by statement');
      expect(rows.map((r) => r.statement)).toEqual([texts[0], texts[1], texts[5]]);
    } finally {
      await pool.end();
    }
  });

  it('plans a read once per PostgreSQL connection and runs that generic plan; PGlite, planning in-process, uses itself', async () => {
    if (opened.database.kind === 'pglite') {
      expect(opened.database.planned).toBe(opened.database.db);
      return;
    }
    expect(opened.database.planned).not.toBe(opened.database.db);
    const pool = (opened.database.planned as unknown as { $client: pg.Pool }).$client;
    const client = await pool.connect();
    try {
      const text = 'select id from users where id = $1 limit 1';
      for (const id of [1, 2, 3]) await client.query({ text }, [id]);
      const { rows } = await client.query<{ statement: string; generic_plans: string; custom_plans: string }>(
        'select statement, generic_plans, custom_plans from pg_prepared_statements',
      );
      expect(rows).toEqual([{ statement: text, generic_plans: '3', custom_plans: '0' }]);
    } finally {
      client.release();
    }
    // Behind a pooler that cannot keep named statements, every read goes unnamed through the one pool.
    const unprepared = await openDatabase({ ...(opened.target as { kind: 'postgres'; url: string }), preparedStatements: false });
    try {
      expect(unprepared.planned).toBe(unprepared.db);
    } finally {
      await unprepared.close();
    }
  });
});
