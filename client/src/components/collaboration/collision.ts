import type { Comment, TicketDetail } from '@helpdesk/protocol';
import { labelOf, truncate } from '../../lib/text';

/** What the agent saw when they started: the ticket's version and the newest comment then. */
export interface Baseline {
  ticket: TicketDetail;
  lastCommentId: number;
}

export const baselineOf = (ticket: TicketDetail): Baseline => ({
  ticket,
  lastCommentId: Math.max(0, ...ticket.comments.map((c) => c.id)),
});

export interface Collision {
  /** Replies and notes others wrote since. */
  comments: Comment[];
  /** Field changes since, as "Status: Open → In Progress". */
  changes: string[];
}

/** A field's value as people read it; long texts are cut. */
export const showField = (field: string, value: unknown): string => {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'object') return 'name' in value ? (value as { name: string }).name : JSON.stringify(value);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (field === 'status' || field === 'priority' || field === 'category') return labelOf(text);
  return truncate(text, 80);
};

const FIELDS = [
  ['status', 'Status'],
  ['priority', 'Priority'],
  ['category', 'Category'],
  ['assignedAgent', 'Assigned to'],
  ['resolutionNotes', 'Resolution notes'],
  ['title', 'Title'],
  ['description', 'Description'],
] as const;

/**
 * What others did to the ticket since the baseline (docs/product.md#working-a-ticket-together), or undefined
 * when nothing: the client's live copy is compared with the copy the agent started from.
 */
export function collisionSince(baseline: Baseline, now: TicketDetail, me: number): Collision | undefined {
  const comments = now.comments.filter((c) => c.id > baseline.lastCommentId && c.author.id !== me);
  const before = baseline.ticket;
  const changes =
    now.version > before.version && now.updatedBy?.id !== me
      ? FIELDS.filter(([field]) => JSON.stringify(before[field]) !== JSON.stringify(now[field])).map(
          ([field, label]) => `${label}: ${showField(field, before[field])} → ${showField(field, now[field])}`,
        )
      : [];
  return comments.length > 0 || changes.length > 0 ? { comments, changes } : undefined;
}
