import { describe, expect, it } from 'vitest';
import { jsonOfFields } from './jsonOnce.js';

describe('the JSON of an answer whose fields share a value', () => {
  it('is the text JSON.stringify writes, whatever the fields hold', () => {
    const tickets = [{ id: 1, title: 'Printer "jams"', tags: ['vip'], at: new Date(0), none: undefined }];
    const bodies: Record<string, unknown>[] = [
      { success: true, tickets, data: tickets, total: 1, totalCapped: undefined, next: [], page: 1 },
      { a: null, b: 'x\u2028y', c: { nested: tickets }, d: () => 1, e: 0 },
      {},
    ];
    for (const body of bodies) expect(jsonOfFields(body)).toBe(JSON.stringify(body));
  });

  it('serializes a value held by two fields once', () => {
    let calls = 0;
    const page = { toJSON: () => ((calls += 1), [{ id: 7 }]) };
    expect(jsonOfFields({ tickets: page, data: page })).toBe('{"tickets":[{"id":7}],"data":[{"id":7}]}');
    expect(calls).toBe(1);
  });
});
