import { describe, expect, it } from 'vitest';
import { textStart } from './textStart.js';

describe('textStart', () => {
  it('cuts at the given length, a unit short where an emoji would be halved', () => {
    expect(textStart('abcdef', 3)).toBe('abc');
    expect(textStart('ab', 5)).toBe('ab');
    expect(textStart('ab😀c', 3)).toBe('ab');
    expect(textStart('ab😀c', 4)).toBe('ab😀');
    expect(textStart('😀', 0)).toBe('');
  });
});
