import { commentBody } from '@helpdesk/protocol';
import { schemaResolver } from '../../lib/schemaResolver';

// Loaded on demand (loadCommentChecks.ts): zod stays off the ticket's first paint.

export const validateComment = schemaResolver(commentBody);

/** The comment as the server will store it, or the first rule it breaks. */
export function checkComment(content: string): { content: string } | { error: string | undefined } {
  const parsed = commentBody.safeParse({ content });
  return parsed.success ? { content: parsed.data.content } : { error: parsed.error.issues[0]?.message };
}
