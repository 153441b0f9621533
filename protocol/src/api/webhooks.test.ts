import { describe, expect, it } from 'vitest';
import { createWebhookBody, updateWebhookBody, WEBHOOK_EVENTS, WEBHOOK_RETRY_DELAYS_MS } from './webhooks.js';

describe('webhook bodies', () => {
  it('takes a URL, events in a fixed order once each, and defaults the rest', () => {
    expect(
      createWebhookBody.parse({ url: ' https://hooks.example.com/in ', events: ['ticket.updated', 'ticket.created', 'ticket.created'] }),
    ).toEqual({
      url: 'https://hooks.example.com/in',
      description: '',
      events: ['ticket.created', 'ticket.updated'],
      includeInternal: false,
      active: true,
    });
    expect(updateWebhookBody.parse({ active: false })).toEqual({ active: false });
  });

  it('says what is wrong, with the texts of docs/api.md#webhooks', () => {
    const errors = (body: unknown) => createWebhookBody.safeParse(body).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(errors({ events: ['sla.warning'] })).toEqual(['url: Webhook URL must be an https URL of at most 2000 characters']);
    expect(errors({ url: 'mailto:a@example.com', events: [] })).toEqual([
      'url: Webhook URL must be an https URL of at most 2000 characters',
      'events: Choose at least one event',
    ]);
    for (const url of ['https://example.com/a\u0000b', 'https://example.com/\ud800']) {
      expect(errors({ url, events: ['ticket.created'] })?.[0]).toBe(
        'url: Invalid character in url: text cannot contain NUL or unpaired surrogate characters',
      );
    }
    expect(errors({ url: 'https://x.example', events: ['webhook.test'] })).toEqual([
      `events: Events must be among: ${WEBHOOK_EVENTS.join(', ')}`,
    ]);
    expect(errors({ url: 'https://x.example', events: ['ticket.created'], description: 'd'.repeat(201) })).toEqual([
      'description: Description must be at most 200 characters long',
    ]);
  });

  it('retries seven times, ending 10 h apart', () => {
    expect(WEBHOOK_RETRY_DELAYS_MS.map((ms) => ms / 1000)).toEqual([5, 300, 1800, 7200, 18_000, 36_000, 36_000]);
  });
});
