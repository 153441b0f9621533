/** Screen texts of the survey page (docs/product.md#satisfaction-survey); the shared ones live in protocol. */
export const RATE_TEXT = {
  title: 'Rate Our Support',
  ticket: (id: number, title: string) => `Ticket #${id}: ${title}`,
  loadFailed: 'Failed to load the survey',
  sendFailed: 'Failed to send your feedback',
  change: 'Change my answer',
} as const;
