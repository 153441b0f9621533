import { describe, expect, it } from 'vitest';
import { sanitizeFilename } from './filename.js';

describe('sanitizeFilename', () => {
  it.each([
    ['report.pdf', 'report.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\eve\\Desktop\\notes.txt', 'notes.txt'],
    ['dir/', 'attachment'],
    ['..', 'attachment'],
    ['', 'attachment'],
    [undefined, 'attachment'],
    ['  spaced  .txt  ', 'spaced  .txt'],
    ['tab\there\u0000nul\u001b[31mred\u007f\u0085.txt', 'tabherenul[31mred.txt'],
    ['invoice\u202Efdp.exe', 'invoicefdp.exe'],
    ['\u2066isolated\u2069\u200E\u200F\u061C.png', 'isolated.png'],
    ['\u202A\u202B\u202C\u202D', 'attachment'],
    ['line\u2028break.txt', 'linebreak.txt'],
    ['Résumé 😀.pdf', 'Résumé 😀.pdf'],
  ])('%j → %j', (raw, clean) => {
    expect(sanitizeFilename(raw)).toBe(clean);
  });

  it('keeps at most 200 characters, counted as code points, and the extension', () => {
    expect(sanitizeFilename(`${'a'.repeat(300)}.jpeg`)).toBe(`${'a'.repeat(195)}.jpeg`);
    const emoji = sanitizeFilename('😀'.repeat(250));
    expect(Array.from(emoji)).toHaveLength(200);
    expect(emoji).toBe('😀'.repeat(200));
  });
});
