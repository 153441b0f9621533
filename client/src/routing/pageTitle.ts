import { pageAt } from './pages';

export const APP_NAME = 'HelpDesk System';

/** Each path's tab title, so several open tabs can be told apart (ids as the app writes them: #12). */
export function pageName(path: string): string {
  const match = pageAt(path);
  return match ? match.page.title(match.id ?? '') : 'Page Not Found';
}

/** "(3) Ticket #12 · HelpDesk System": the count is live changes not yet seen in this tab. */
export function pageTitle(path: string, unseen = 0): string {
  const title = `${pageName(path)} · ${APP_NAME}`;
  return unseen > 0 ? `(${unseen}) ${title}` : title;
}
