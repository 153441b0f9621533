import {
  LIMITS,
  MESSAGES,
  WEBHOOK_TEST_EVENT,
  type CreateWebhookBody,
  type UpdateWebhookBody,
  type Webhook,
  type WebhookDelivery,
} from '@helpdesk/protocol';
import {
  deleteWebhook,
  failPendingDeliveries,
  findDeliveries,
  findDelivery,
  findWebhook,
  findWebhooks,
  insertDeliveries,
  insertWebhook,
  requeueDelivery,
  updateWebhook,
  type WebhookRow,
} from '../db/queries/webhooks.js';
import { NotFoundError, ValidationError } from '../lib/errors.js';
import { isPrivateHost } from '../lib/publicAddress.js';
import { newDelivery, presentDelivery, presentWebhook } from '../presenters/webhooks.js';
import { newWebhookSecret } from '../lib/webhookSigning.js';
import type { ServiceContext } from './context.js';

const M = MESSAGES.webhooks;

/**
 * What WEBHOOK_ALLOW_HTTP and WEBHOOK_ALLOW_PRIVATE allow, checked on the URL as written. A name is
 * checked again, resolved, at every send (webhooks/post.ts).
 */
function checkUrl(url: string, { allowHttp, allowPrivate }: { allowHttp: boolean; allowPrivate: boolean }) {
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:' && !allowHttp) throw new ValidationError(M.urlInvalid, { url: M.urlInvalid });
  if (!allowPrivate && isPrivateHost(parsed)) throw new ValidationError(M.urlNotPublic, { url: M.urlNotPublic });
}

/**
 * Outgoing webhooks (docs/api.md#webhooks), for admins: the routes gate them. Deliveries of changes
 * are queued by webhooks/queueWebhooks.ts in each change's transaction; this queues tests and retries.
 */
export function createWebhookService({
  db,
  withTransaction,
  logger,
  settings,
}: Pick<ServiceContext, 'db' | 'withTransaction' | 'logger' | 'settings'>) {
  const rules = settings.webhooks;

  const existing = async (id: number): Promise<WebhookRow> => {
    const row = await findWebhook(db, id);
    if (!row) throw new NotFoundError(M.notFound);
    return row;
  };

  return {
    list: async (): Promise<Webhook[]> => (await findWebhooks(db)).map(presentWebhook),

    async create(input: CreateWebhookBody): Promise<{ webhook: Webhook; secret: string }> {
      checkUrl(input.url, rules);
      const secret = newWebhookSecret();
      const row = await insertWebhook(db, { ...input, secret }, LIMITS.webhooks.max);
      if (!row) throw new ValidationError(M.tooMany(LIMITS.webhooks.max));
      logger.info({ webhookId: row.id, events: row.events }, 'webhook created');
      return { webhook: presentWebhook(row), secret };
    },

    /** Turning an endpoint off fails what it had still to send; turning it on clears why it was off. */
    async update(id: number, input: UpdateWebhookBody): Promise<Webhook> {
      if (input.url !== undefined) checkUrl(input.url, rules);
      const before = await existing(id);
      const switchedOn = input.active === true && !before.active;
      const row = await withTransaction(async (tx) => {
        const updated = await updateWebhook(tx, id, { ...input, ...(switchedOn && { disabledReason: null, failingSince: null }) });
        if (updated && !updated.active) await failPendingDeliveries(tx, id, M.turnedOff);
        return updated;
      });
      if (!row) throw new NotFoundError(M.notFound);
      return presentWebhook(row);
    },

    async remove(id: number): Promise<void> {
      if (!(await deleteWebhook(db, id))) throw new NotFoundError(M.notFound);
      logger.info({ webhookId: id }, 'webhook deleted');
    },

    /** A new secret, in force for the next attempt; the old one stops signing at once. */
    async rotateSecret(id: number): Promise<{ webhook: Webhook; secret: string }> {
      await existing(id);
      const secret = newWebhookSecret();
      const row = await updateWebhook(db, id, { secret });
      if (!row) throw new NotFoundError(M.notFound);
      logger.info({ webhookId: id }, 'webhook secret rotated');
      return { webhook: presentWebhook(row), secret };
    },

    /** Queues a `webhook.test` delivery to this endpoint alone. */
    async test(id: number): Promise<WebhookDelivery> {
      const webhook = await existing(id);
      if (!webhook.active) throw new ValidationError(M.testInactive);
      return withTransaction(async (tx, emit) => {
        const values = newDelivery(id, WEBHOOK_TEST_EVENT, { webhookId: id, description: webhook.description }, new Date());
        const [inserted] = await insertDeliveries(tx, [values]);
        emit('webhook.queued', { deliveries: 1 });
        const row = inserted && (await findDelivery(tx, inserted.id));
        if (!row) throw new NotFoundError(M.deliveryNotFound);
        return presentDelivery(row);
      });
    },

    async deliveries(id: number, { limit, before }: { limit: number; before?: number }) {
      await existing(id);
      const { rows, hasMore } = await findDeliveries(db, id, limit, before);
      return { deliveries: rows.map(presentDelivery), hasMore };
    },

    /** A failed delivery sent again, with a fresh run of attempts. */
    async retry(deliveryId: number): Promise<WebhookDelivery> {
      const delivery = await findDelivery(db, deliveryId);
      if (!delivery) throw new NotFoundError(M.deliveryNotFound);
      if (delivery.status !== 'failed') throw new ValidationError(M.retryNotFailed);
      if (!(await existing(delivery.webhookId)).active) throw new ValidationError(M.retryInactive);
      const row = await withTransaction(async (tx, emit) => {
        const requeued = await requeueDelivery(tx, deliveryId, new Date());
        if (requeued) emit('webhook.queued', { deliveries: 1 });
        return requeued;
      });
      if (!row) throw new ValidationError(M.retryNotFailed);
      return presentDelivery(row);
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
