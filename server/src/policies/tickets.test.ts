import { describe, expect, it } from 'vitest';
import type { Role } from '@helpdesk/protocol';
import type { Actor } from './actor.js';
import { registrationRefusal } from './accounts.js';
import { wantsNotice } from './notifications.js';
import { canDeleteTicket, canSetTicketStatus, canViewTicket, editableTicketFields } from './tickets.js';

const actor = (id: number, role: Role): Actor => ({ id, role, name: `${role} ${id}`, email: `${id}@x.test` });
const ticketOf = (userId: number) => ({ userId });

describe('ticket policies', () => {
  const owner = actor(1, 'user');
  const stranger = actor(2, 'user');
  const agent = actor(3, 'agent');
  const admin = actor(4, 'admin');
  const ticket = ticketOf(owner.id);

  it.each([
    ['owner', owner, true, true],
    ['other user', stranger, false, false],
    ['agent', agent, true, false],
    ['admin', admin, true, true],
  ] as const)('%s: view=%s delete=%s', (_, who, view, del) => {
    expect(canViewTicket(who, ticket)).toBe(view);
    expect(canDeleteTicket(who, ticket)).toBe(del);
  });

  it('gives owners the form fields and staff the work fields', () => {
    expect([...editableTicketFields(owner, ticket)].sort()).toEqual(['description', 'priority', 'status', 'title']);
    expect([...editableTicketFields(agent, ticket)].sort()).toEqual(['assignedAgentId', 'priority', 'resolutionNotes', 'status']);
    expect([...editableTicketFields(stranger, ticket)]).toEqual([]);
    // An agent's own ticket: both sets.
    expect(editableTicketFields(agent, ticketOf(agent.id)).size).toBe(6);
  });

  it('reserves closing for staff', () => {
    expect(canSetTicketStatus(owner, 'closed')).toBe(false);
    expect(canSetTicketStatus(owner, 'resolved')).toBe(true);
    expect(canSetTicketStatus(agent, 'closed')).toBe(true);
  });
});

describe('registration policy', () => {
  it.each([
    [undefined, 'user', 'open', undefined],
    [undefined, 'agent', 'open', undefined],
    [undefined, 'agent', 'closed', 'Only administrators can create agent accounts'],
    [undefined, 'admin', 'open', 'Only administrators can create admin accounts'],
    [actor(9, 'agent'), 'admin', 'open', 'Only administrators can create admin accounts'],
    [actor(9, 'admin'), 'admin', 'open', undefined],
    [actor(9, 'admin'), 'agent', 'closed', undefined],
  ] as const)('%o asking for %s with signup %s → %s', (who, role, signup, refusal) => {
    expect(registrationRefusal(who, role, signup)).toBe(refusal);
  });
});

describe('notification preference', () => {
  it.each([
    ['all', { kind: 'status', to: 'in_progress' }, true],
    ['all', { kind: 'staff-comment' }, true],
    ['important', { kind: 'status', to: 'in_progress' }, false],
    ['important', { kind: 'status', to: 'resolved' }, true],
    ['important', { kind: 'status', to: 'closed' }, true],
    ['important', { kind: 'staff-comment' }, false],
    ['none', { kind: 'status', to: 'resolved' }, false],
  ] as const)('%s + %o → %s', (preference, notice, expected) => {
    expect(wantsNotice(preference, notice)).toBe(expected);
  });
});
