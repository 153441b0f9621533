import { describe, expect, it } from 'vitest';
import { excerptOf, stripMarkdown } from './markdownText';

describe('stripMarkdown', () => {
  it.each([
    ['## Heading\n\nText', 'Heading Text'],
    ['**bold**, *italic*, __strong__, ~~gone~~ and `code`', 'bold, italic, strong, gone and code'],
    ['See [the guide](https://x.example/a_b) and ![a diagram](img.png)', 'See the guide and a diagram'],
    ['> quoted\n- one\n* two\n1. three', 'quoted one two three'],
    ['```js\nconst a = 1;\n```', 'const a = 1;'],
    ['<b>raw</b> html', 'raw html'],
    ['above\n\n---\n\nbelow', 'above below'],
  ])('reads %j as %j', (markdown, text) => {
    expect(stripMarkdown(markdown)).toBe(text);
  });
});

describe('excerptOf', () => {
  it('keeps short text whole and cuts long text at 100 characters with an ellipsis', () => {
    expect(excerptOf('**Short** text')).toBe('Short text');
    const long = `# Title\n\n${'word '.repeat(40)}`;
    const excerpt = excerptOf(long);
    expect(excerpt.endsWith('...')).toBe(true);
    expect(excerpt.length).toBeLessThanOrEqual(103);
    expect(excerpt.startsWith('Title word word')).toBe(true);
  });
});
