import { describe, expect, it } from 'vitest';
import type { Role } from '../enums.js';
import { isAdmin, isStaff, type Actor } from './actor.js';
import { canChangeRoleOf, canDeleteAccount, canManageArticles, canManageUsers, registrableRoles, registrationRefusal } from './accounts.js';
import { wantsNotice } from './notifications.js';
import {
  canCommentOnTicket,
  canDeleteTicket,
  canSetTicketStatus,
  canViewTicket,
  canChangeTicketCategory,
  editableTicketFields,
  visibleTicketScope,
} from './tickets.js';

const actor = (id: number, role: Role): Actor => ({ id, role, name: `${role} ${id}` });
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
    expect(canCommentOnTicket(who, ticket)).toBe(view);
    expect(canDeleteTicket(who, { ...ticket, answered: false })).toBe(del);
  });

  it('lets an owner delete only until support answers; admins always; agents never, not even their own ticket', () => {
    expect(canDeleteTicket(owner, { ...ticket, answered: true })).toBe(false);
    expect(canDeleteTicket(admin, { ...ticket, answered: true })).toBe(true);
    expect(canDeleteTicket(agent, { userId: agent.id, answered: false })).toBe(false);
    expect(canDeleteTicket(admin, { userId: admin.id, answered: true })).toBe(true);
  });

  it('scopes lists to the owner unless staff', () => {
    expect(visibleTicketScope(owner)).toEqual({ ownerId: owner.id });
    expect(visibleTicketScope(agent)).toEqual({});
    expect(visibleTicketScope(admin)).toEqual({});
  });

  it('gives owners the form fields and staff the work fields', () => {
    // The owner may send the category as it is; only canChangeTicketCategory lets anyone change it.
    expect([...editableTicketFields(owner, ticket)].sort()).toEqual(['category', 'description', 'priority', 'status', 'title']);
    expect([...editableTicketFields(agent, ticket)].sort()).toEqual([
      'assignedAgentId',
      'category',
      'priority',
      'resolutionNotes',
      'status',
      'tags',
    ]);
    expect([...editableTicketFields(stranger, ticket)]).toEqual([]);
    // An agent's own ticket: both sets.
    expect(editableTicketFields(agent, ticketOf(agent.id)).size).toBe(8);
  });

  it('lets staff change a category, never its owner', () => {
    expect(canChangeTicketCategory(agent)).toBe(true);
    expect(canChangeTicketCategory(admin)).toBe(true);
    expect(canChangeTicketCategory(owner)).toBe(false);
  });

  it('lets staff close any ticket and an owner withdraw their own', () => {
    expect(canSetTicketStatus(owner, { userId: owner.id }, 'closed')).toBe(true);
    expect(canSetTicketStatus(owner, { userId: owner.id + 100 }, 'closed')).toBe(false);
    expect(canSetTicketStatus(owner, { userId: owner.id }, 'resolved')).toBe(true);
    expect(canSetTicketStatus(agent, { userId: owner.id }, 'closed')).toBe(true);
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

  it.each([
    [null, 'open', ['user', 'agent']],
    [null, 'closed', ['user']],
    [actor(9, 'user'), 'open', ['user', 'agent']],
    [actor(9, 'agent'), 'closed', ['user']],
    [actor(9, 'admin'), 'closed', ['user', 'agent', 'admin']],
  ] as const)('%o with signup %s is offered %o', (who, signup, roles) => {
    expect(registrableRoles(who, signup)).toEqual(roles);
  });
});

describe('role policies', () => {
  it.each([
    ['user', false, false, false, false],
    ['agent', true, false, false, true],
    ['admin', true, true, true, true],
  ] as const)('%s: staff=%s admin=%s manage users=%s manage articles=%s', (role, staff, adminRole, users, articles) => {
    const who = actor(1, role);
    expect(isStaff(who)).toBe(staff);
    expect(isAdmin(who)).toBe(adminRole);
    expect(canManageUsers(who)).toBe(users);
    expect(canManageArticles(who)).toBe(articles);
  });

  it('lets an admin delete or demote anyone but themselves', () => {
    const admin = actor(1, 'admin');
    expect(canDeleteAccount(admin, { id: 2 })).toBe(true);
    expect(canDeleteAccount(admin, { id: 1 })).toBe(false);
    expect(canChangeRoleOf(admin, { id: 2 })).toBe(true);
    expect(canChangeRoleOf(admin, { id: 1 })).toBe(false);
    expect(canDeleteAccount(actor(3, 'agent'), { id: 2 })).toBe(false);
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
