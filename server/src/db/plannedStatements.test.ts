import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useOpenedDatabase } from '../../test/openedDatabase.js';
import { openDatabase } from './client.js';
import { literalLimit, nameStatements, NAMES_PER_CONNECTION } from './plannedStatements.js';
import { users } from './schema/index.js';

/** A connection's `query` as node-postgres calls it: what each call was sent as. */
function recordingClient() {
  const sent: Array<{ text: string; name?: string }> = [];
  const client = {
    query: (config: unknown, ..._values: unknown[]) => {
      sent.push(config as { text: string; name?: string });
      return Promise.resolve({ rows: [] });
    },
  };
  nameStatements(client);
  return { client, sent };
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

  it(`names at most ${NAMES_PER_CONNECTION} statements on a connection; later ones run unnamed, known ones stay named`, async () => {
    const { client, sent } = recordingClient();
    for (let i = 0; i <= NAMES_PER_CONNECTION; i += 1) await client.query({ text: `select ${i} where $1::int > 0` }, [1]);
    await client.query({ text: 'select 0 where $1::int > 0' }, [1]);
    expect(sent.slice(0, NAMES_PER_CONNECTION).every((s) => s.name)).toBe(true);
    expect(sent[NAMES_PER_CONNECTION]!.name).toBeUndefined();
    expect(sent.at(-1)!.name).toBe(sent[0]!.name);
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
