import type { Ticket } from '@helpdesk/protocol';
import { describe, expect, it } from 'vitest';
import { commentNotice, ticketNotice, ticketOnScreen } from './liveNotices';

const ticket = { id: 12, title: 'Printer jam', status: 'in_progress', priority: 'high', category: 'technical' } as Ticket;
const sam = { id: 2, name: 'Sam Agent' };

describe('live notices', () => {
  it('knows which ticket a page shows', () => {
    expect(ticketOnScreen('/ticket/12')).toBe(12);
    expect(ticketOnScreen('/tickets/7')).toBe(7);
    expect(ticketOnScreen('/agent/ticket/3/update')).toBe(3);
    expect(ticketOnScreen('/edit-ticket/5')).toBe(5);
    expect(ticketOnScreen('/agent-dashboard')).toBeNull();
    expect(ticketOnScreen('/tickets')).toBeNull();
  });

  it('says what changed, and says nothing about one’s own changes', () => {
    const updated = { action: 'updated' as const, ticket, by: sam, previous: { status: 'open' as const }, history: [] };
    expect(ticketNotice(updated, 9)).toEqual({
      ticketId: 12,
      title: 'Ticket #12 updated',
      message: 'Sam Agent: status Open → In Progress',
    });
    expect(ticketNotice(updated, sam.id)).toBeNull();
    expect(ticketNotice({ action: 'created', ticket, by: sam }, 9)?.title).toBe('New ticket #12');
    expect(ticketNotice({ action: 'updated', ticket, by: sam, previous: { priority: 'low' }, history: [] }, 9)?.message).toBe(
      'Sam Agent: priority Low → High',
    );
    expect(ticketNotice({ action: 'updated', ticket, by: sam, previous: { category: 'general' }, history: [] }, 9)?.message).toBe(
      'Sam Agent: category General → Technical',
    );
  });

  it('announces replies by others', () => {
    const comment = {
      id: 1,
      ticketId: 12,
      content: 'hi',
      internal: false,
      author: { ...sam, role: 'agent' as const },
      createdAt: '',
      attachments: [],
    };
    const event = { ticketId: 12, comment, history: {} as never, commentCount: 1 };
    expect(commentNotice(event, 9)).toEqual({ ticketId: 12, title: 'New reply on ticket #12', message: 'Sam Agent replied' });
    expect(commentNotice(event, sam.id)).toBeNull();
    expect(commentNotice({ ...event, comment: { ...comment, internal: true } }, 9)).toEqual({
      ticketId: 12,
      title: 'New internal note on ticket #12',
      message: 'Sam Agent added an internal note',
    });
  });
});
