import { PgDialect } from 'drizzle-orm/pg-core';
import type { SlaFilter } from '@helpdesk/protocol';
import { describe, expect, it } from 'vitest';
import { afterPrefix } from './ticketFilters.js';
import { ticketConditions } from './tickets.js';

/** text_pattern_ops compares UTF-8 bytes. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

describe('afterPrefix: the end of the index range of the names that start with a text', () => {
  it('steps the last code point up, past the surrogates, and has none after the last code point', () => {
    expect(afterPrefix('ann')).toBe('ano');
    expect(afterPrefix('ann ')).toBe('ann!');
    expect(afterPrefix('zoë')).toBe('zoì');
    expect(afterPrefix('smile😀')).toBe('smile😁');
    expect(afterPrefix('x\u{d7ff}')).toBe('x\u{e000}');
    expect(afterPrefix('')).toBeUndefined();
    expect(afterPrefix('x\u{10ffff}')).toBeUndefined();
  });

  it('holds every text that starts with the prefix and no other, in byte order', () => {
    const texts = ['ann', 'anna', 'ann lee', 'ann\u{10ffff}', 'ann😀', 'anm', 'ano', 'anno', 'an', 'b', 'zoë', 'zoë k', 'zoé', 'zoì'];
    for (const prefix of ['ann', 'zoë', 'an']) {
      const end = afterPrefix(prefix)!;
      for (const text of texts) {
        const inRange = byBytes(text, prefix) >= 0 && byBytes(text, end) < 0;
        expect(inRange, `${text} against ${prefix}`).toBe(text.startsWith(prefix));
      }
    }
  });
});

describe('an SLA state written into the statement', () => {
  it('writes one of the states as a literal and refuses anything else', () => {
    const dialect = new PgDialect();
    const rendered = dialect.sqlToQuery(ticketConditions({}, { sla: 'warning' })!);
    expect(rendered.sql).toBe(`exists (select 1 from "ticket_sla_states" s where s.ticket_id = "tickets"."id" and s.state = 'warning')`);
    expect(rendered.params).toEqual([]);
    expect(() => ticketConditions({}, { sla: "ok' or true --" as SlaFilter })).toThrow(RangeError);
  });
});
