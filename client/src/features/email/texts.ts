/** Texts of the Email admin page (docs/product.md#email-admin). */
export const EMAIL_TEXT = {
  title: 'Email',
  intro: 'How mail reaches the helpdesk, and what became of the latest messages.',
  settingsTitle: 'Settings in force',
  settingsHint: 'Set by the server’s environment; change them there and restart.',
  messagesTitle: 'Recent messages',
  settingsFailed: 'Failed to load the email settings',
  messagesFailed: 'Failed to load the recent messages',
  empty: 'No mail has arrived yet',
  emptyHint: 'Messages sent to the support address appear here as they arrive.',
  off: 'Off',
  loadMore: 'Show older messages',
  retried: 'The message will be filed again',
  retryFailed: 'The message could not be queued again',
  downloadFailed: 'The message could not be downloaded',
} as const;
