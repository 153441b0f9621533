import { canManageArticles, type Article } from '@helpdesk/protocol';
import { Badge, Divider, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { confirmDelete } from '../../lib/confirmDelete';
import { IconThumbUp } from '@tabler/icons-react';
import { EditDeleteButtons } from '../../components/EditDeleteButtons';
import { PageLoader } from '../../components/PageLoader';
import { ArticleByline } from './ArticleByline';
import { ArticleLoadError, BackToKnowledgeBase } from './ArticleLoadError';
import { CategoryChip } from '../../components/CategoryChip';
import { CreateTicketCallout } from './CreateTicketCallout';
import { HelpfulButton } from './HelpfulButton';
import { KeywordChips } from './KeywordChips';
import { MarkdownContent } from './MarkdownContent';
import { KNOWLEDGE_TEXT as T } from './texts';
import { useArticle } from './useArticle';
import { useDeleteArticle } from './useDeleteArticle';
import { useCan } from '../../state/useCan';

const helpfulText = (count: number) => `${count} ${count === 1 ? 'person' : 'people'} found this helpful`;

/** The article page (docs/product.md#article-page): the article in full, a helpful vote and a way on to a ticket. */
export default function ArticleDetailPage({ id }: { id: number }) {
  const article = useArticle(id);
  if (article.isPending) return <PageLoader />;
  if (article.isError) return <ArticleLoadError error={article.error} />;
  return <ArticleView article={article.data.article} />;
}

function ArticleView({ article }: { article: Article }) {
  const canEdit = useCan(canManageArticles);
  return (
    <Stack gap="md">
      <BackToKnowledgeBase />
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Paper withBorder radius="md" p={{ base: 'md', sm: 'xl' }} component="article" aria-labelledby="article-title">
            <Stack gap="md">
              <Group justify="space-between" align="flex-start">
                <Group gap="xs">
                  <CategoryChip category={article.category} size="lg" />
                  <Badge
                    variant="light"
                    color="teal"
                    size="lg"
                    leftSection={<IconThumbUp size={14} aria-hidden />}
                    data-testid="helpful-count"
                  >
                    {helpfulText(article.helpfulCount)}
                  </Badge>
                </Group>
                {canEdit && <StaffActions article={article} />}
              </Group>
              <Title order={1} id="article-title">
                {article.title}
              </Title>
              <ArticleByline article={article} detailed />
              <Divider />
              <MarkdownContent>{article.content}</MarkdownContent>
              {article.keywords.length > 0 && (
                <>
                  <Divider />
                  <KeywordChips keywords={article.keywords} size="md" />
                </>
              )}
            </Stack>
          </Paper>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="md">
            <Paper withBorder radius="md" p="lg">
              <Stack gap="sm" align="flex-start">
                <Text fw={600}>Feedback</Text>
                <Text size="sm" c="dimmed">
                  Let us know when an article solved your problem, so others find the best answers first.
                </Text>
                <HelpfulButton article={article} variant="light">
                  {T.wasHelpful}
                </HelpfulButton>
              </Stack>
            </Paper>
            <CreateTicketCallout title={T.stillNeedHelp} description="Our support team can look into your case personally." />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function StaffActions({ article }: { article: Article }) {
  const remove = useDeleteArticle(article.id);
  const askToDelete = () => confirmDelete({ title: T.deleteTitle, question: T.deleteConfirm, onConfirm: () => remove.mutate() });
  return <EditDeleteButtons editHref={`/knowledge/${article.id}/edit`} onDelete={askToDelete} deleting={remove.isPending} />;
}
