import type * as Checks from './commentChecks';

/** Should the rules not load (offline), the comment goes to the server as typed and its checks answer. */
const SERVER_ONLY: typeof Checks = {
  validateComment: () => ({}),
  checkComment: (content) => ({ content }),
};

/** The comment rules, loaded on demand so zod stays off the ticket's first paint. */
export const loadCommentChecks = (): Promise<typeof Checks> => import('./commentChecks').catch(() => SERVER_ONLY);
