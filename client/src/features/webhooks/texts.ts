import type { WebhookDeliveryStatus, WebhookEvent } from '@helpdesk/protocol';

/** Texts of the Webhooks page (docs/product.md#webhooks). */
export const WEBHOOKS_TEXT = {
  title: 'Webhooks',
  intro: 'Send ticket events to other systems as they happen, signed so they can tell the request came from here.',
  add: 'Add webhook',
  addTitle: 'Add Webhook',
  editTitle: 'Edit Webhook',
  create: 'Add Webhook',
  save: 'Save Changes',
  loadFailed: 'Failed to load the webhooks',
  saveFailed: 'Failed to save the webhook',
  empty: 'No webhooks yet',
  emptyHint: 'Add one to send ticket events to another system.',
  secretTitle: 'Copy the signing secret now',
  secretHint: 'It is shown only this once. The receiver checks each request’s webhook-signature with it.',
  on: 'On',
  off: 'Off',
  internalNotes: 'Internal notes included',
  edit: 'Edit',
  test: 'Send test',
  rotate: 'New secret',
  rotateTitle: 'Make a new signing secret?',
  rotateQuestion: 'The current secret stops signing at once: update the receiver with the new one.',
  deleteTitle: 'Delete this webhook?',
  deleteQuestion: (url: string) => `Nothing more is sent to ${url}, and its delivery log is deleted.`,
  actionFailed: 'The action failed',
  deliveries: 'Deliveries',
  hideDeliveries: 'Hide deliveries',
  deliveriesFailed: 'Failed to load the deliveries',
  noDeliveries: 'Nothing sent yet. Send a test to see one here.',
  loadMore: 'Show older deliveries',
  retry: 'Retry',
  retryFailed: 'The delivery could not be queued again',
  fieldUrl: 'Endpoint URL',
  fieldDescription: 'Description',
  fieldEvents: 'Events',
  fieldIncludeInternal: 'Include internal notes',
  fieldIncludeInternalHint: 'Staff-only notes go to this endpoint too (comment.created).',
  fieldActive: 'Active',
} as const;

/** What each event is, for the checkboxes. */
export const EVENT_HINTS: Record<WebhookEvent, string> = {
  'ticket.created': 'A ticket is created',
  'ticket.updated': 'A ticket changes (with its previous values)',
  'ticket.deleted': 'A ticket is deleted',
  'comment.created': 'A reply (or, when included, an internal note) is added',
  'sla.warning': 'An SLA deadline is near',
  'sla.breached': 'An SLA deadline is missed',
  'csat.received': 'A satisfaction survey is answered',
};

export const DELIVERY_COLORS: Record<WebhookDeliveryStatus, string> = {
  pending: 'yellow',
  delivered: 'green',
  failed: 'red',
};
