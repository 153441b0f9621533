import { MESSAGES, type HistoryEntry } from '@helpdesk/protocol';
import { labelOf } from '../../lib/text';

/** "title,description" → "Title and description". */
function fieldList(fields: string): string {
  const words = fields
    .split(',')
    .map((field) => field.trim())
    .filter(Boolean)
    .join(' and ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * What a history entry says on the status timeline. Values follow docs/decisions.md "History
 * values": enum values for status, priority and category, changed field names for edits, agent names for
 * assignment, the notes for resolution, the comment id for comments.
 */
export function describeHistory(entry: Pick<HistoryEntry, 'type' | 'from' | 'to'>): string {
  const { from, to } = entry;
  switch (entry.type) {
    case 'created':
      return 'Ticket created';
    case 'status':
      return from ? `Status changed from ${labelOf(from)} to ${labelOf(to ?? '')}` : `Status set to ${labelOf(to ?? '')}`;
    case 'priority':
      return from ? `Priority changed from ${labelOf(from)} to ${labelOf(to ?? '')}` : `Priority set to ${labelOf(to ?? '')}`;
    case 'category':
      return `Category changed from ${labelOf(from ?? '')} to ${labelOf(to ?? '')}`;
    case 'edited': {
      const fields = fieldList(to ?? '');
      return fields ? `${fields} edited` : 'Ticket edited';
    }
    case 'resolution':
      return to ? 'Resolution notes updated' : 'Resolution notes cleared';
    case 'assigned':
      if (to) return `Assigned to ${to}`;
      return from ? `Unassigned from ${from}` : 'Unassigned';
    case 'comment':
      return 'Comment added';
    case 'follow_up':
      return MESSAGES.inbound.followUpOf(Number(from));
    case 'email_bounced':
      return MESSAGES.inbound.bounced(from ?? '', to ?? '');
    case 'tags':
      return to ? `Tags set to ${to.split(',').join(', ')}` : 'Tags cleared';
    case 'merged':
      return to ? `Merged into #${to}` : 'Merged';
    case 'sla':
      return MESSAGES.sla.markText(from, to);
  }
}
