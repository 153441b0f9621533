import { describe, expect, it } from 'vitest';
import { aComment, aHistoryEntry } from '../../test-utils/ticketFixtures';
import { threadCount, threadItems } from './thread';

const at = (minute: number) => `2026-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
const label = (item: ReturnType<typeof threadItems>[number]) => (item.kind === 'comment' ? `c${item.comment.id}` : `h${item.entry.id}`);

describe('threadItems', () => {
  it('puts changes between messages in time order and leaves out "comment added" entries', () => {
    const items = threadItems({
      comments: [aComment({ id: 1, createdAt: at(1) }), aComment({ id: 2, createdAt: at(5) })],
      history: [
        aHistoryEntry({ id: 1, type: 'created', createdAt: at(0) }),
        aHistoryEntry({ id: 2, type: 'comment', to: '1', createdAt: at(1) }),
        aHistoryEntry({ id: 3, type: 'status', from: 'open', to: 'in_progress', createdAt: at(3) }),
        aHistoryEntry({ id: 4, type: 'priority', from: 'low', to: 'high', createdAt: at(5) }),
      ],
    });
    expect(items.map(label)).toEqual(['h1', 'c1', 'h3', 'h4', 'c2']);
  });

  it('shows nothing older than the oldest loaded entry of a list that has older ones', () => {
    const items = threadItems({
      comments: [aComment({ id: 9, createdAt: at(20) })],
      hasOlderComments: true,
      history: [aHistoryEntry({ id: 1, type: 'created', createdAt: at(0) }), aHistoryEntry({ id: 2, type: 'status', createdAt: at(30) })],
      hasOlderHistory: false,
    });
    expect(items.map(label)).toEqual(['c9', 'h2']);
  });

  it('counts every comment the reader may see', () => {
    expect(threadCount({ commentCount: 64 }, false)).toBe(64);
    expect(threadCount({ commentCount: 64, noteCount: 3 }, true)).toBe(67);
    expect(threadCount({ commentCount: 64, noteCount: 3 }, false)).toBe(64);
  });
});
