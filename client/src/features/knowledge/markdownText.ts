import { LIMITS } from '@helpdesk/protocol';
import { truncate } from '../../lib/text';

/**
 * Markdown reduced to the words a reader sees, for excerpts: markers, link targets, code fences
 * and raw HTML tags go; the text inside them stays.
 */
export function stripMarkdown(markdown: string): string {
  return markdown
    .replace(/```[^\n]*\n?/g, '') // code fences (their code stays)
    .replace(/<[^>]*>/g, ' ') // raw HTML tags
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1') // images → alt text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // links → link text
    .replace(/^\s{0,3}#{1,6}\s+/gm, '') // headings
    .replace(/^\s{0,3}>\s?/gm, '') // block quotes
    .replace(/^\s*([-*+]|\d+[.)])\s+/gm, '') // list markers
    .replace(/^\s*([-*_]\s*){3,}$/gm, '') // horizontal rules
    .replace(/\|/g, ' ') // table pipes
    .replace(/(\*\*|__|~~|[*_`])/g, '') // emphasis and inline code markers
    .replace(/\s+/g, ' ')
    .trim();
}

/** Card excerpts are the plain text cut at 100 characters (docs/product.md#limits). */
export const excerptOf = (content: string): string => truncate(stripMarkdown(content), LIMITS.excerpt.truncate);
