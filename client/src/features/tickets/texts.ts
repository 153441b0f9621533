/**
 * Screen texts of the ticket screens (docs/product.md#screens), word for word. The HTTP catalogue and the
 * validation messages live in protocol; these are only ever shown by the client.
 */
export const TICKET_TEXT = {
  loadDetailFailed: 'Failed to load ticket details',
  notFound: 'Ticket not found',
  updateFailed: 'Failed to update ticket',
  createFailed: 'Failed to create ticket',
  deleteFailed: 'Failed to delete ticket',
  loadListFailed: 'Failed to load tickets. Please try again later.',
  showOlderComments: 'Show older',
  reopenOnReply: 'Replying will reopen this ticket.',
  comments: (count: number) => `Comments (${count})`,
  olderCommentsFailed: 'Failed to load older comments',
  accessDeniedTitle: 'Access Denied',
  accessDenied: "Ticket not found or you don't have permission to edit it",
  created: 'Ticket created successfully! Redirecting to dashboard...',
  updated: 'Ticket updated successfully!',
  deleteConfirm: 'Are you sure you want to delete this ticket?',
  noTickets: 'No tickets found',
  noMatches: 'No tickets match your filters',
  emptyDashboardTitle: 'No tickets yet',
  emptyDashboardText: 'Create your first support ticket to get started',
  csatTitle: 'Rate Our Support',
  csatFailed: 'Failed to send your feedback',
  csatRating: 'Customer Rating',
  csatNoComment: 'No comment',
  originalEmail: 'Download original email',
  originalEmailFailed: 'The original email could not be downloaded',
} as const;
