import { LIMITS, type Article } from '@helpdesk/protocol';
import { Button, Card, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { Link } from 'wouter';
import { ArticleByline } from './ArticleByline';
import { CategoryChip } from '../../components/CategoryChip';
import { HelpfulButton } from './HelpfulButton';
import { KeywordChips } from './KeywordChips';
import { excerptOf } from './markdownText';

/** The article card (docs/product.md#knowledge-base): title, category, excerpt, byline, keywords, Read More and Helpful. */
export function ArticleCard({ article }: { article: Article }) {
  const titleId = `article-${article.id}-title`;
  return (
    <Card component="article" aria-labelledby={titleId} withBorder radius="md" padding="lg" h="100%">
      <Stack gap="sm" h="100%">
        <Group justify="space-between" wrap="nowrap">
          <CategoryChip category={article.category} />
        </Group>
        <Title order={2} fz="lg" id={titleId} lineClamp={2}>
          {article.title}
        </Title>
        <Text size="sm" c="dimmed" data-testid="article-excerpt">
          {excerptOf(article.content)}
        </Text>
        <KeywordChips keywords={article.keywords} limit={LIMITS.keywordsShown} />
        <Stack gap="sm" mt="auto">
          <ArticleByline article={article} />
          <Divider />
          <Group justify="space-between" wrap="nowrap">
            <Button
              component={Link}
              href={`/knowledge/${article.id}`}
              variant="light"
              rightSection={<IconArrowRight size={16} aria-hidden />}
              aria-label={`Read More: ${article.title}`}
            >
              Read More
            </Button>
            <HelpfulButton article={article}>Helpful ({article.helpfulCount})</HelpfulButton>
          </Group>
        </Stack>
      </Stack>
    </Card>
  );
}
