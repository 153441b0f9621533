import { Anchor, Typography } from '@mantine/core';
import Markdown, { type Components } from 'react-markdown';
import { Link } from 'wouter';

/** `/tickets` is a page of this app; `//host/path` is another site (a protocol-relative URL). */
const isAppPath = (href: string) => /^\/(?!\/)/.test(href);
const isExternal = (href: string) => /^[a-z][a-z\d+.-]*:/i.test(href) || href.startsWith('//');

/**
 * Links: app paths navigate in place; anything else opens in a new tab that cannot reach back
 * into this one.
 */
const components: Components = {
  a: ({ href = '', children }) =>
    isAppPath(href) ? (
      <Anchor component={Link} href={href}>
        {children}
      </Anchor>
    ) : (
      <Anchor href={href} target={isExternal(href) ? '_blank' : undefined} rel="noopener noreferrer">
        {children}
      </Anchor>
    ),
};

/**
 * Article content as Markdown. react-markdown builds React elements from the Markdown tree and
 * never injects HTML: raw tags in the content show as text, and unsafe URLs (javascript:) are
 * dropped by its default URL filter.
 */
export function MarkdownContent({ children }: { children: string }) {
  return (
    <Typography data-testid="markdown-content">
      <Markdown components={components}>{children}</Markdown>
    </Typography>
  );
}
