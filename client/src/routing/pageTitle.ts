export const APP_NAME = 'HelpDesk System';

/** Each path's tab title, so several open tabs can be told apart (ids as the app writes them: #12). */
const TITLES: [RegExp, (id: string) => string][] = [
  [/^\/login$/, () => 'Login'],
  [/^\/signup$/, () => 'Create Account'],
  [/^\/reset-password$/, () => 'Reset Password'],
  [/^\/api-test$/, () => 'API Test'],
  [/^\/knowledge$/, () => 'Knowledge Base'],
  [/^\/knowledge\/new$/, () => 'New Article'],
  [/^\/knowledge\/(\d+)\/edit$/, (id) => `Edit Article #${id}`],
  [/^\/knowledge\/(\d+)$/, (id) => `Article #${id}`],
  [/^\/dashboard$/, () => 'Dashboard'],
  [/^\/tickets$/, () => 'Tickets'],
  [/^\/(?:create-ticket|tickets\/new)$/, () => 'Create New Ticket'],
  [/^\/(?:ticket|tickets)\/(\d+)$/, (id) => `Ticket #${id}`],
  [/^\/edit-ticket\/(\d+)$/, (id) => `Edit Ticket #${id}`],
  [/^\/agent-dashboard$/, () => 'Agent Dashboard'],
  [/^\/agent\/ticket\/(\d+)\/update$/, (id) => `Update Ticket #${id}`],
  [/^\/settings$/, () => 'Settings'],
  [/^\/support-management$/, () => 'Support Management'],
];

export function pageName(path: string): string {
  for (const [pattern, name] of TITLES) {
    const match = pattern.exec(path);
    if (match) return name(match[1] ?? '');
  }
  return 'Page Not Found';
}

/** "(3) Ticket #12 · HelpDesk System": the count is live changes not yet seen in this tab. */
export function pageTitle(path: string, unseen = 0): string {
  const title = `${pageName(path)} · ${APP_NAME}`;
  return unseen > 0 ? `(${unseen}) ${title}` : title;
}
