import type { Comment, HistoryEntry, TicketResponse } from '@helpdesk/protocol';
import { describe, expect, it } from 'vitest';
import { withComment, withHistory, withOlderComments, withOlderHistory } from './ticketThread';

const at = (minute: number) =>
  `2026-01-01T${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00.000Z`;
const comment = (id: number, overrides: Partial<Comment> = {}): Comment => ({
  id,
  ticketId: 1,
  content: `Comment ${id}`,
  author: { id: 2, name: 'Agent', role: 'agent' },
  internal: false,
  createdAt: at(id),
  attachments: [],
  ...overrides,
});
const entry = (id: number, overrides: Partial<HistoryEntry> = {}): HistoryEntry => ({
  id,
  ticketId: 1,
  type: 'comment',
  from: null,
  to: String(id),
  actor: { id: 2, name: 'Agent' },
  createdAt: at(id),
  ...overrides,
});
/** The detail as the server sends it with `total` comments and entries, numbered 1..total: the latest 50. */
function detailWith(total: number): TicketResponse {
  const latest = Array.from({ length: Math.min(total, 50) }, (_, i) => total - Math.min(total, 50) + 1 + i);
  return {
    success: true,
    ticket: {
      id: 1,
      title: 'Printer',
      description: 'Broken',
      priority: 'medium',
      category: 'general',
      status: 'open',
      resolutionNotes: null,
      user: { id: 7, name: 'Olive' },
      assignedAgent: null,
      updatedBy: null,
      commentCount: total,
      answered: false,
      version: 1,
      createdAt: at(0),
      updatedAt: at(0),
      lastActivityAt: at(total),
      comments: latest.map((id) => comment(id)),
      history: latest.map((id) => entry(id)),
      attachments: [],
      hasOlderComments: total > 50,
      hasOlderHistory: total > 50,
    },
  };
}
const ids = (items: { id: number }[]) => items.map((i) => i.id);

describe('a ticket thread kept like a fresh load', () => {
  it('keeps the latest 50 comments and entries when one more arrives, as the server would send', () => {
    const live = withHistory(withComment(detailWith(50), comment(51), 51), [entry(51)]);
    const fresh = detailWith(51);
    expect(ids(live.ticket.comments)).toEqual(ids(fresh.ticket.comments));
    expect(ids(live.ticket.history)).toEqual(ids(fresh.ticket.history));
    expect(live.ticket).toMatchObject({ hasOlderComments: true, hasOlderHistory: true, commentCount: 51 });
  });

  it("counts a new note in staff's noteCount once, and never in commentCount", () => {
    const staffCopy: TicketResponse = { ...detailWith(3), ticket: { ...detailWith(3).ticket, noteCount: 2 } };
    const note = comment(4, { internal: true });
    const noted = withComment(staffCopy, note, 3);
    expect(noted.ticket).toMatchObject({ noteCount: 3, commentCount: 3 });
    expect(withComment(noted, note, 3)).toBe(noted);
    // An owner's copy has no noteCount, and a public comment leaves it alone.
    expect(withComment(detailWith(3), comment(4), 4).ticket.noteCount).toBeUndefined();
    expect(withComment(noted, comment(5), 4).ticket.noteCount).toBe(3);
  });

  it('grows a thread under 50 in place, in the server order, once', () => {
    const detail = detailWith(3);
    const late = withComment(withComment(detail, comment(5), 4), comment(4), 5);
    expect(ids(late.ticket.comments)).toEqual([1, 2, 3, 4, 5]);
    expect(late.ticket.commentCount).toBe(5);
    expect(withComment(late, comment(4), 4)).toBe(late);
    expect(ids(withHistory(detail, [entry(2), entry(4)]).ticket.history)).toEqual([1, 2, 3, 4]);
  });

  it('leaves out a late entry older than a full window, but counts its comment', () => {
    const detail = detailWith(60);
    const late = withComment(detail, comment(5, { id: 61 }), 61);
    expect(ids(late.ticket.comments)).toEqual(ids(detail.ticket.comments));
    expect(late.ticket.commentCount).toBe(61);
    expect(withHistory(detail, [entry(5, { id: 61 })])).toBe(detail);
  });

  it('never lowers the count, and a note never raises it', () => {
    const detail = detailWith(3);
    expect(withComment(detail, comment(2), 2).ticket.commentCount).toBe(3);
    const note = withComment(detail, comment(4, { internal: true }), 3);
    expect(ids(note.ticket.comments)).toEqual([1, 2, 3, 4]);
    expect(note.ticket.commentCount).toBe(3);
  });

  it('grows a window the reader widened with older comments: what they paged back to stays', () => {
    const detail = withOlderComments(
      detailWith(60),
      Array.from({ length: 10 }, (_, i) => comment(i + 1)),
      false,
    );
    expect(detail.ticket.comments).toHaveLength(60);
    const more = withComment(detail, comment(61), 61);
    expect(more.ticket.comments).toHaveLength(61);
    expect(ids(more.ticket.comments).slice(0, 2)).toEqual([1, 2]);
    expect(more.ticket.hasOlderComments).toBe(false);
    expect(withHistory(withOlderHistory(detailWith(60), [entry(1)], false), [entry(61)]).ticket.history).toHaveLength(52);
  });
});
