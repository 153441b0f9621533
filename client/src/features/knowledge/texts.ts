import { MESSAGES } from '@helpdesk/protocol';

/** The knowledge screens' words; those quoted in docs/product.md#knowledge-base and #article-page are kept word for word. */
export const KNOWLEDGE_TEXT = {
  title: 'Knowledge Base',
  subtitle: 'Find answers to common questions, step-by-step guides and tips from our support team.',
  loadListFailed: 'Failed to load knowledge articles',
  loadArticleFailed: 'Failed to load article',
  notFound: MESSAGES.knowledge.notFound,
  emptyTitle: 'No articles found',
  emptyFiltered: 'Try adjusting your search criteria',
  emptyNone: 'No knowledge articles available yet',
  unknownCreator: 'Unknown',
  wasHelpful: 'Was this article helpful?',
  stillNeedHelp: 'Still need help?',
  cantFind: "Can't find what you're looking for?",
  createTicket: 'Create a Ticket',
  backToList: 'Back to Knowledge Base',
  created: 'Article created successfully',
  updated: 'Article updated successfully',
  deleteTitle: 'Delete article',
  deleteConfirm: 'Are you sure you want to delete this article?',
  deleteFailed: 'Failed to delete article',
  saveFallback: MESSAGES.client.fallback,
} as const;
