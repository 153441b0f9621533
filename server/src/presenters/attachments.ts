import type { Attachment } from '@helpdesk/protocol';
import type { AttachmentRow } from '../db/queries/attachments.js';

export const presentAttachment = (row: AttachmentRow): Attachment => ({
  id: row.id,
  filename: row.filename,
  size: row.size,
  contentType: row.contentType,
});
