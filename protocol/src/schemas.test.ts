import { describe, expect, it } from 'vitest';
import {
  MESSAGES,
  createTicketBody,
  editTicketForm,
  isStorableText,
  isTitleEditAllowed,
  resetPasswordForm,
  signupForm,
  ticketListQuery,
  updateTicketBody,
} from './index.js';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe('shared form schemas', () => {
  it('signup: the confirmation must match and is not part of the request body', () => {
    const base = { name: 'A', email: 'a@b.co', password: 'Secret1!', role: 'user' };
    expect(firstMessage(signupForm.safeParse({ ...base, confirmPassword: 'Secret2!' }))).toBe('Passwords do not match');
    expect(signupForm.safeParse({ ...base, confirmPassword: 'Secret1!' }).success).toBe(true);
  });

  it('signup: each missing password ingredient is refused with the documented text', () => {
    for (const password of ['secret1!', 'Secret!!', 'Secret12']) {
      expect(firstMessage(signupForm.safeParse({ name: 'A', email: 'a@b.co', password, confirmPassword: password, role: 'user' }))).toBe(
        'Password must include uppercase, number, and special character',
      );
    }
  });

  it('a password with a NUL or a lone surrogate is refused, since its hash would match other passwords', () => {
    const message = 'Invalid character in password: text cannot contain NUL or unpaired surrogate characters';
    for (const password of ['Abcdef1!\ud800', 'Abcdef1!\u0000']) {
      expect(firstMessage(signupForm.safeParse({ name: 'A', email: 'a@b.co', password, confirmPassword: password, role: 'user' }))).toBe(
        message,
      );
      expect(firstMessage(resetPasswordForm.safeParse({ newPassword: password, confirmPassword: password }))).toBe(message);
    }
  });

  it('reset: new and confirm must match', () => {
    expect(firstMessage(resetPasswordForm.safeParse({ newPassword: 'Secret1!', confirmPassword: 'nope' }))).toBe('Passwords do not match');
  });

  it('create and edit use their own title bounds (5..200 vs 3..100)', () => {
    expect(firstMessage(createTicketBody.safeParse({ title: 'abcd', description: '0123456789' }))).toBe(
      'Title must be at least 5 characters long',
    );
    expect(
      editTicketForm('Printer jam').safeParse({ title: 'abc', description: '0123456789', priority: 'low', status: 'open' }).success,
    ).toBe(true);
    expect(
      firstMessage(
        editTicketForm('Printer jam').safeParse({ title: 'x'.repeat(101), description: '0123456789', priority: 'low', status: 'open' }),
      ),
    ).toBe('Title must be at most 100 characters long');
    expect(createTicketBody.parse({ title: 'x'.repeat(200), description: '0123456789' }).priority).toBe('medium');
  });

  it('the edit form does not offer closed, the API body accepts it for staff', () => {
    expect(
      editTicketForm('Printer jam').safeParse({ title: 'abc', description: '0123456789', priority: 'low', status: 'closed' }).success,
    ).toBe(false);
    expect(updateTicketBody.parse({ status: 'closed' }).status).toBe('closed');
  });

  it('list query: defaults, the in-progress alias and the sort direction', () => {
    expect(ticketListQuery.parse({})).toMatchObject({ page: 1, limit: 10, mine: false, sort: { field: 'createdAt', descending: true } });
    expect(ticketListQuery.parse({ status: 'in-progress', sort: 'updatedAt' })).toMatchObject({
      status: 'in_progress',
      sort: { field: 'updatedAt', descending: false },
    });
  });
});

describe('storable text', () => {
  it('refuses NUL and unpaired surrogates, and keeps emoji and other well-formed text', () => {
    expect(isStorableText('Printer 🔥 “on fire” 日本語')).toBe(true);
    for (const bad of ['a\u0000b', '\u0000', 'a\uD800', '\uDC00b', 'x\uDBFF\uDBFFy']) expect(isStorableText(bad)).toBe(false);
  });

  it('puts the character message first, naming the field', () => {
    expect(firstMessage(createTicketBody.safeParse({ title: '\u0000', description: 'long enough text' }))).toBe(
      'Invalid character in title: text cannot contain NUL or unpaired surrogate characters',
    );
    expect(firstMessage(ticketListQuery.safeParse({ search: 'a\u0000' }))).toBe(MESSAGES.validation.invalidCharacter('Search'));
  });
});

describe('editing a title', () => {
  it('lets an unchanged title of any created length through, and holds a changed one to 100', () => {
    const long = 'L'.repeat(180);
    expect(isTitleEditAllowed(long, long)).toBe(true);
    expect(isTitleEditAllowed(long, `${long.slice(1)}!`)).toBe(false);
    expect(isTitleEditAllowed(long, 'Short title')).toBe(true);
    const form = editTicketForm(long);
    expect(form.safeParse({ title: long, description: '0123456789', priority: 'low', status: 'open' }).success).toBe(true);
    expect(firstMessage(form.safeParse({ title: 'M'.repeat(101), description: '0123456789', priority: 'low', status: 'open' }))).toBe(
      'Title must be at most 100 characters long',
    );
  });
});
