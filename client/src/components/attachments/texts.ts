import { LIMITS, MESSAGES } from '@helpdesk/protocol';

/** Screen texts of the file picker and the files in a thread (docs/product.md#attachments). */
export const ATTACHMENT_TEXT = {
  attach: 'Attach files',
  dropHere: 'Drop files here to attach them',
  hint: 'Add files with the button, by dropping them here, or by pasting an image.',
  pending: 'Files to send',
  attached: 'Attached files',
  uploading: (percent: number) => `Uploading ${percent}%`,
  uploaded: 'Uploaded',
  uploadFailed: 'The file could not be uploaded. Please try again.',
  remove: (name: string) => `Remove ${name}`,
  download: 'Download',
  downloadFailed: 'The file could not be downloaded. Please try again.',
  waitForUploads: 'Wait until the files have finished uploading.',
  tooMany: MESSAGES.attachments.tooMany(LIMITS.attachments.maxCount),
} as const;
