import type { CannedResponse } from '@helpdesk/protocol';
import type { CannedResponseRow } from '../db/queries/cannedResponses.js';

export const presentCannedResponse = (row: CannedResponseRow): CannedResponse => ({
  id: row.id,
  title: row.title,
  content: row.content,
  shared: row.shared,
  owner: { id: row.ownerId, name: row.ownerName },
});
