import type { Article } from '@helpdesk/protocol';
import { Group, Text } from '@mantine/core';
import { IconCalendar, IconEdit, IconUser } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatDate } from '../../lib/dates';
import { KNOWLEDGE_TEXT } from './texts';

function Item({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <Group gap={4} wrap="nowrap">
      {icon}
      <Text size="sm" c="dimmed" span>
        {children}
      </Text>
    </Group>
  );
}

/** Who wrote an article and when; the detail page adds when it last changed. */
export function ArticleByline({ article, detailed = false }: { article: Article; detailed?: boolean }) {
  const iconProps = { size: 15, color: 'var(--mantine-color-dimmed)', 'aria-hidden': true } as const;
  return (
    <Group gap="md" data-testid="article-byline">
      <Item icon={<IconUser {...iconProps} />}>{article.creator?.name ?? KNOWLEDGE_TEXT.unknownCreator}</Item>
      <Item icon={<IconCalendar {...iconProps} />}>
        {detailed ? 'Published ' : ''}
        {formatDate(article.createdAt)}
      </Item>
      {detailed && <Item icon={<IconEdit {...iconProps} />}>Updated {formatDate(article.updatedAt)}</Item>}
    </Group>
  );
}
