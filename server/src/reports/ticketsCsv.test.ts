import { describe, expect, it } from 'vitest';
import type { Db } from '../db/client.js';
import { ticketsCsv } from './ticketsCsv.js';

describe('ticketsCsv', () => {
  it('says so when the database fails mid-way, instead of ending the file without a word', async () => {
    // A database that drops the connection at the first batch: the response can only end early.
    const failing = { execute: () => Promise.reject(new Error('connection lost')) } as unknown as Db;
    const errors: Error[] = [];
    const stream = ticketsCsv(
      failing,
      { assigneeId: -1, priority: '', category: '' },
      { lo: new Date(0), hi: new Date() },
      {
        onError: (error) => errors.push(error),
      },
    );
    // The response sees the error too (Koa ends it); what matters here is that it is reported.
    stream.on('error', () => undefined).resume();
    await new Promise((resolve) => stream.on('close', resolve));
    expect(errors.map((e) => e.message)).toEqual(['connection lost']);
  });
});
