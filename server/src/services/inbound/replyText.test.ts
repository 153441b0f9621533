import { describe, expect, it } from 'vitest';
import { cutTo } from './replyText.js';

describe('cutTo', () => {
  it('keeps a text within the limit, the note after it, and never half an emoji', () => {
    expect(cutTo('short', 12, '…')).toBe('short');
    const cut = cutTo(`${'a'.repeat(8)}${'😀'.repeat(5)}`, 12, '…');
    expect(cut).toBe(`${'a'.repeat(8)}\n\n…`);
    expect(cut.length).toBeLessThanOrEqual(12);
    expect(cutTo(`${'a'.repeat(7)}${'😀'.repeat(5)}`, 12, '…')).toBe(`${'a'.repeat(7)}😀\n\n…`);
  });
});
