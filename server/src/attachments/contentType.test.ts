import { describe, expect, it } from 'vitest';
import { GIF_1X1, HTML_PAGE, PDF_MINIMAL, PNG_1X1, SVG_IMAGE } from '../../test/files.js';
import { contentDisposition, isInline, sniffContentType } from './contentType.js';

describe('sniffContentType', () => {
  it('names binary formats from their bytes, whatever the sender declared', async () => {
    expect(await sniffContentType(PNG_1X1, 'text/html')).toBe('image/png');
    expect(await sniffContentType(GIF_1X1, undefined)).toBe('image/gif');
    expect(await sniffContentType(PDF_MINIMAL, 'image/png')).toBe('application/pdf');
  });

  it('keeps a declared text type for text, text/plain otherwise; unknown binary is octet-stream', async () => {
    expect(await sniffContentType(HTML_PAGE, 'text/html; charset=utf-8')).toBe('text/html');
    expect(await sniffContentType(SVG_IMAGE, 'image/svg+xml')).toBe('image/svg+xml');
    expect(await sniffContentType(Buffer.from('a,b\n1,2\n'), 'text/csv')).toBe('text/csv');
    expect(await sniffContentType(Buffer.from('plain words'), 'image/png')).toBe('text/plain');
    expect(await sniffContentType(Buffer.from('plain words'), 'text/x-evil\r\nSet-Cookie: a=b')).toBe('text/plain');
    expect(await sniffContentType(Buffer.from([1, 0, 2, 0, 3]), 'text/plain')).toBe('application/octet-stream');
  });
});

describe('inline or attachment', () => {
  it('is inline only for PNG, JPEG, GIF and WebP whose name says the same', () => {
    expect(isInline({ contentType: 'image/png', filename: 'a.PNG' })).toBe(true);
    expect(isInline({ contentType: 'image/jpeg', filename: 'photo.jpg' })).toBe(true);
    expect(isInline({ contentType: 'image/webp', filename: 'x.webp' })).toBe(true);
    expect(isInline({ contentType: 'image/png', filename: 'a.html' })).toBe(false);
    expect(isInline({ contentType: 'image/png', filename: 'noextension' })).toBe(false);
    expect(isInline({ contentType: 'image/svg+xml', filename: 'logo.svg' })).toBe(false);
    expect(isInline({ contentType: 'text/html', filename: 'page.html' })).toBe(false);
    expect(isInline({ contentType: 'application/xml', filename: 'feed.xml' })).toBe(false);
    expect(isInline({ contentType: 'image/bmp', filename: 'old.bmp' })).toBe(false);
  });

  it('writes filename* in UTF-8, percent-encoded, quotes and parentheses included', () => {
    expect(contentDisposition({ contentType: 'text/plain', filename: `a"b'c(d)*;\r\n.txt` })).toBe(
      "attachment; filename*=UTF-8''a%22b%27c%28d%29%2A%3B%0D%0A.txt",
    );
    expect(contentDisposition({ contentType: 'image/gif', filename: 'ü.gif' })).toBe("inline; filename*=UTF-8''%C3%BC.gif");
  });
});
