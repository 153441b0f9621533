import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../messages.js';
import { attachmentIdsField, formatBytes, isPreviewableImage, megabytes } from './attachments.js';

describe('attachments in the protocol', () => {
  it('states the limit in MiB as the upload error says it', () => {
    expect(MESSAGES.attachments.tooLarge(megabytes(25 * 1024 * 1024))).toBe('Each file can be at most 25 MB');
    expect(megabytes(1024 * 1024)).toBe(1);
    expect(megabytes(512 * 1024)).toBe(0.5);
    expect(MESSAGES.attachments.tooMany(20)).toBe('At most 20 files can be attached at once');
    expect(MESSAGES.attachments.notUsable(7)).toBe('Attachment 7 cannot be used here');
  });

  it('writes sizes as people read them', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    // Beside a limit it is over, never the limit's own figure.
    const limit = 25 * 1024 * 1024;
    expect(formatBytes(26_500_000)).toBe('25 MB');
    expect(formatBytes(26_500_000, limit)).toBe('25.3 MB');
    expect(formatBytes(limit + 1, limit)).toBe('25.1 MB');
    expect(formatBytes(40 * 1024 * 1024, limit)).toBe('40 MB');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(1023)).toBe('1023 bytes');
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatBytes(1_572_864)).toBe('1.5 MB');
    expect(formatBytes(25 * 1024 * 1024)).toBe('25 MB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3 GB');
  });

  it('takes attachmentIds as a list of ids, once each, and names the field on error', () => {
    expect(attachmentIdsField.parse(undefined)).toEqual([]);
    expect(attachmentIdsField.parse([3, 3, 1])).toEqual([3, 1]);
    for (const bad of [['1'], [0], [1.5], [2 ** 31], 'x', [null]]) {
      const result = attachmentIdsField.safeParse(bad);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe('Attachments must be a list of upload ids');
      expect(result.error?.issues[0]?.path).toEqual([]);
    }
  });

  it('previews raster images only', () => {
    expect(['image/png', 'image/jpeg', 'image/gif', 'image/webp'].every(isPreviewableImage)).toBe(true);
    expect(['image/svg+xml', 'text/html', 'application/xml', 'image/bmp'].some(isPreviewableImage)).toBe(false);
  });
});
