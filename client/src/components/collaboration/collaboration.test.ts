import { describe, expect, it } from 'vitest';
import { aComment, aTicket } from '../../test-utils/ticketFixtures';
import { baselineOf, collisionSince } from './collision';
import { insertMention, matchingStaff, mentionedIds, mentionQueryAt } from './mentions';
import { typingText } from './TypingIndicator';

const staff = [
  { id: 2, name: 'Agent Smith' },
  { id: 3, name: 'Ada Lovelace' },
  { id: 4, name: 'Bob Adams' },
];

describe('mentions', () => {
  it('finds the @query right before the caret, only at a word start', () => {
    expect(mentionQueryAt('Hi @Ad', 6)).toEqual({ start: 3, query: 'Ad' });
    expect(mentionQueryAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQueryAt('mail me@example', 15)).toBeUndefined();
    expect(mentionQueryAt('Hi @Ad and more', 15)).toBeUndefined();
  });

  it('lists prefix matches first, then other matches', () => {
    expect(matchingStaff(staff, 'ad').map((s) => s.id)).toEqual([3, 4]);
    expect(matchingStaff(staff, '').map((s) => s.name)).toEqual(['Ada Lovelace', 'Agent Smith', 'Bob Adams']);
  });

  it('replaces the query with the name and keeps only mentions still in the text', () => {
    const { text, caret } = insertMention('Hi @Ad please', 3, 6, 'Ada Lovelace');
    expect(text).toBe('Hi @Ada Lovelace  please');
    expect(caret).toBe(17);
    expect(mentionedIds(text, [staff[1]!, staff[0]!, staff[1]!])).toEqual([3]);
  });
});

describe('collision warning', () => {
  const me = 2;
  const start = { ...aTicket({ version: 3 }), comments: [aComment({ id: 10 })], history: [], attachments: [] };

  it('is quiet when nothing changed or only I changed it', () => {
    const base = baselineOf(start);
    expect(collisionSince(base, start, me)).toBeUndefined();
    const mine = { ...start, version: 4, status: 'in_progress' as const, updatedBy: { id: me, name: 'Me' } };
    expect(
      collisionSince(
        base,
        { ...mine, comments: [...start.comments, aComment({ id: 11, author: { id: me, name: 'Me', role: 'agent' } })] },
        me,
      ),
    ).toBeUndefined();
  });

  it('names the replies and field changes of others', () => {
    const base = baselineOf(start);
    const reply = aComment({ id: 12, content: 'Fixed it', author: { id: 9, name: 'Cleo', role: 'agent' } });
    const now = {
      ...start,
      version: 4,
      status: 'resolved' as const,
      updatedBy: { id: 9, name: 'Cleo' },
      comments: [...start.comments, reply],
    };
    expect(collisionSince(base, now, me)).toEqual({ comments: [reply], changes: ['Status: Open → Resolved'] });
  });
});

it('says who is typing', () => {
  expect(typingText(['Cleo'])).toBe('Cleo is typing…');
  expect(typingText(['Cleo', 'Ada', 'Bob'])).toBe('Cleo, Ada and Bob are typing…');
});
