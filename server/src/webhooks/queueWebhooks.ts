import type { WebhookEvent } from '@helpdesk/protocol';
import type { Db } from '../db/client.js';
import { findSubscribers, insertDeliveries } from '../db/queries/webhooks.js';
import type { BeforeCommit } from '../db/unitOfWork.js';
import type { HeldEvent } from '../events/bus.js';
import { newDelivery } from '../presenters/webhooks.js';
import type { ReadMemo } from '../services/readMemo.js';

/** One webhook event a domain event causes. `internal`: only for endpoints that take internal notes. */
export interface WebhookMessage {
  type: WebhookEvent;
  data: unknown;
  internal?: boolean;
}

const by = ({ id, name }: { id: number; name: string }) => ({ id, name });

/**
 * The webhook events of a domain event, each `data` shaped as the staff socket event of the same
 * change (docs/api.md#real-time-events), without its `at` stamp.
 */
export function webhookMessagesOf(event: HeldEvent): WebhookMessage[] {
  switch (event.name) {
    case 'ticket.created': {
      const { ticket, actor } = event.payload;
      return [{ type: 'ticket.created', data: { ticket, by: by(actor) } }];
    }
    case 'ticket.updated': {
      const { ticket, actor, previous, history } = event.payload;
      return [{ type: 'ticket.updated', data: { ticket, by: by(actor), previous, history } }];
    }
    case 'ticket.deleted': {
      const { ticketId, actor, previous } = event.payload;
      return [{ type: 'ticket.deleted', data: { ticket: { id: ticketId }, by: by(actor), previous } }];
    }
    case 'comment.added': {
      const { ticketId, comment, history, commentCount } = event.payload;
      return [{ type: 'comment.created', data: { ticketId, comment, history, commentCount }, internal: comment.internal }];
    }
    case 'sla.changed': {
      // A mark's own entries; a re-targeted policy adds none and is no webhook event.
      const { ticketId, sla, version, history = [] } = event.payload;
      return (['warning', 'breached'] as const).flatMap((mark) => {
        const entries = history.filter((entry) => entry.type === 'sla' && entry.to === mark);
        return entries.length === 0 ? [] : [{ type: `sla.${mark}` as const, data: { ticketId, sla, version, history: entries } }];
      });
    }
    case 'csat.received': {
      const { ticketId, csat } = event.payload;
      return [{ type: 'csat.received', data: { ticketId, csat } }];
    }
    default:
      return [];
  }
}

type Subscribers = Awaited<ReturnType<typeof findSubscribers>>;

/**
 * Queues the deliveries a unit of work's events cause, in its transaction (a beforeCommit hook of
 * db/unitOfWork.ts): they exist exactly when the change does, and the sender takes them once it
 * commits. The active endpoints are a kept answer, read again only after a write to `webhooks`.
 */
export function queueWebhooks(keptSubscribers: ReadMemo<Subscribers>, now: () => Date = () => new Date()): BeforeCommit {
  return async (tx: Db, events, emit) => {
    // The endpoints are asked for at the first event that makes a message, and with none active no
    // other message is built: a scanner batch holds hundreds of marks.
    let subscribers: Subscribers | undefined;
    const at = now();
    const rows: ReturnType<typeof newDelivery>[] = [];
    for (const event of events) {
      const messages = webhookMessagesOf(event);
      if (messages.length === 0) continue;
      subscribers ??= await keptSubscribers('active', () => findSubscribers(tx));
      if (subscribers.length === 0) return;
      for (const { type, data, internal } of messages) {
        for (const hook of subscribers) {
          if (hook.events.includes(type) && (!internal || hook.includeInternal)) rows.push(newDelivery(hook.id, type, data, at));
        }
      }
    }
    if (rows.length === 0) return;
    await insertDeliveries(tx, rows);
    emit('webhook.queued', { deliveries: rows.length });
  };
}
