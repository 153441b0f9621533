import type { Db } from '../src/db/client.js';

type Client = { query: (...args: unknown[]) => unknown };

/**
 * Records the text of every statement drizzle hands these databases' drivers outside transactions
 * (on PGlite `db` and `planned` are one client, recorded once), until `stop`.
 */
export function sentStatements(...databases: Db[]): { texts: string[]; stop(): void } {
  const texts: string[] = [];
  const clients = new Set(databases.map((database) => (database as unknown as { $client: Client }).$client));
  const restores = [...clients].map((client) => {
    const query = client.query.bind(client);
    client.query = (...args: unknown[]) => {
      const config = args[0] as string | { text?: string };
      texts.push(typeof config === 'string' ? config : (config.text ?? ''));
      return query(...args);
    };
    return () => {
      client.query = query;
    };
  });
  return {
    texts,
    stop: () => {
      for (const restore of restores) restore();
    },
  };
}
