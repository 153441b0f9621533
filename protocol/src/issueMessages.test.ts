import { describe, expect, it } from 'vitest';
import { MESSAGES, markNotificationsReadBody, notificationListQuery, olderQuery, ticketListQuery } from './index.js';
import { fieldLabel } from './issueMessages.js';
import { z } from './zod.js';

const messagesOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message);

describe('messages for inputs no rule names', () => {
  it('name the field as a person reads it', () => {
    expect(fieldLabel(['assignedAgentId'])).toBe('Assigned agent id');
    expect(fieldLabel(['email_notifications'])).toBe('Email notifications');
    expect(fieldLabel(['filters', 'search'])).toBe('Search');
    expect(fieldLabel(['ids', 3])).toBe('Ids');
    expect(fieldLabel(['PORT'])).toBe('PORT');
    expect(fieldLabel([])).toBe('The request');
  });

  it('say what is missing, or what the field must be', () => {
    const schema = z.object({
      before: z.string(),
      count: z.number().int().min(2).max(9),
      flag: z.boolean(),
      tags: z.array(z.string()).max(2),
      note: z.string().min(3).max(5),
      kind: z.enum(['a', 'b']),
      nested: z.object({ deep: z.string() }),
    });
    expect(messagesOf(schema.safeParse({}))).toEqual([
      'Before is required',
      'Count is required',
      'Flag is required',
      'Tags are required',
      'Note is required',
      'Kind is required',
      'Nested is required',
    ]);
    expect(
      messagesOf(schema.safeParse({ before: 1, count: 1.5, flag: 'yes', tags: [1], note: 'ab', kind: 'c', nested: { deep: 5 } })),
    ).toEqual([
      'Before must be text',
      'Count must be a whole number',
      'Flag must be true or false',
      'Tags must be a list of texts',
      'Note must be at least 3 characters long',
      'Kind must be one of a, b',
      'Deep must be text',
    ]);
    expect(
      messagesOf(schema.safeParse({ before: '', count: 10, flag: true, tags: ['a', 'b', 'c'], note: 'abcdef', kind: 'a', nested: {} })),
    ).toEqual(['Count must be at most 9', 'Tags must be at most 2 items', 'Note must be at most 5 characters long', 'Deep is required']);
    expect(messagesOf(z.object({}).safeParse('text'))).toEqual(['The request must be an object']);
    expect(messagesOf(z.object({ page: z.string() }).safeParse({ page: ['1', '2'] }))).toEqual(['Page must be one value, not a list']);
    // A query value given twice, even where the value has a rule of its own ("must be one of").
    expect(messagesOf(ticketListQuery.safeParse({ status: ['open', 'closed'], category: ['general', 'billing'] }))).toEqual([
      'Status must be one value, not a list',
      'Category must be one value, not a list',
    ]);
    expect(messagesOf(notificationListQuery.safeParse({ unread: ['1', '0'] }))).toEqual(['Unread must be one value, not a list']);
  });

  it('leave every message a rule gives to that rule', () => {
    expect(messagesOf(z.string({ error: 'Own text' }).safeParse(1))).toEqual(['Own text']);
    expect(messagesOf(olderQuery.safeParse({}))).toEqual([MESSAGES.validation.idInvalid]);
    expect(messagesOf(markNotificationsReadBody.safeParse({ ids: ['x', null] }))).toEqual([
      MESSAGES.validation.notificationIdsInvalid,
      MESSAGES.validation.notificationIdsInvalid,
    ]);
  });

  it('never let zod’s own English through on the flags of a query', () => {
    expect(messagesOf(ticketListQuery.safeParse({ mine: 'maybe' }))).toEqual(['Mine must be one of 0, 1, true, false']);
    expect(messagesOf(notificationListQuery.safeParse({ unread: 'x' }))).toEqual(['Unread must be one of 0, 1, true, false']);
  });
});
