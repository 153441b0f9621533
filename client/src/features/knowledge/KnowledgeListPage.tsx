import { canManageArticles, type Article } from '@helpdesk/protocol';
import { Button, Card, Center, Group, Pagination, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { PAGINATION_LABELS } from '../../lib/paging';
import { IconBooks, IconPlus, IconSearchOff } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { memo, useDeferredValue } from 'react';
import { Link } from 'wouter';
import { Refreshing } from '../../components/Refreshing';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { ArticleCard } from './ArticleCard';
import { CreateTicketCallout } from './CreateTicketCallout';
import { KnowledgeFilterBar } from './KnowledgeFilterBar';
import { KNOWLEDGE_TEXT as T } from './texts';
import { useCan } from '../../state/useCan';
import { useKnowledgeFilters } from './useKnowledgeFilters';
import { ARTICLE_PAGE_SIZE as PAGE_SIZE } from './filters';
import { articleListQuery } from './knowledgeReads';
const GRID_COLS = { base: 1, sm: 2, lg: 3 };

/** The knowledge base: public article search with category filter, cards and a way to a ticket (docs/product.md#knowledge-base). */
export default function KnowledgeListPage() {
  const { filters, apply, clear, filtered } = useKnowledgeFilters();
  const canWrite = useCan(canManageArticles);
  const articles = useQuery({
    ...articleListQuery(filters),
    // Paging and refining keep the old cards on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
  // The cards are the page's heaviest render. A deferred value renders them in the background, in
  // slices, however the answer arrives (the early read, a fetch, a live count): otherwise React
  // draws the whole list in one task and a phone cannot answer a tap meanwhile.
  const shown = useDeferredValue(articles.data);
  const total = shown?.data.total ?? 0;
  const pages = Math.ceil(total / PAGE_SIZE);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1}>{T.title}</Title>
          <Text c="dimmed" mt={4}>
            {T.subtitle}
          </Text>
        </div>
        {canWrite && (
          <Button component={Link} href="/knowledge/new" leftSection={<IconPlus size={18} />}>
            New Article
          </Button>
        )}
      </Group>

      <KnowledgeFilterBar filters={filters} onApply={apply} onClear={clear} />

      {articles.isError ? (
        <ErrorAlert message={T.loadListFailed} error={articles.error} />
      ) : !shown ? (
        <LoadingCards />
      ) : total === 0 ? (
        <Card withBorder radius="md">
          <EmptyState
            title={T.emptyTitle}
            description={filtered ? T.emptyFiltered : T.emptyNone}
            icon={filtered ? <IconSearchOff size={30} /> : <IconBooks size={30} />}
          />
        </Card>
      ) : (
        <Refreshing active={articles.isPlaceholderData}>
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              {total} {total === 1 ? 'article' : 'articles'}
              {filters.search && <> matching “{filters.search}”</>}
            </Text>
            <ArticleGrid articles={shown.data.articles} />
            {pages > 1 && (
              <Center>
                <Pagination
                  total={pages}
                  value={Math.min(filters.page, pages)}
                  onChange={(page) => apply({ ...filters, page })}
                  aria-label="Pages"
                  {...PAGINATION_LABELS}
                />
              </Center>
            )}
          </Stack>
        </Refreshing>
      )}

      <CreateTicketCallout title={T.cantFind} description="Our support team is happy to help. Open a ticket and we will get back to you." />
    </Stack>
  );
}

/** Memoised: the page's own updates (fetching, paging) redraw no card whose list is unchanged. */
const ArticleGrid = memo(function ArticleGrid({ articles }: { articles: Article[] }) {
  return (
    <SimpleGrid cols={GRID_COLS} spacing="lg">
      {articles.map((article) => (
        <ArticleCard key={article.id} article={article} />
      ))}
    </SimpleGrid>
  );
});

function LoadingCards() {
  return (
    <SimpleGrid cols={GRID_COLS} spacing="lg" aria-label="Loading articles">
      {Array.from({ length: 6 }, (_, index) => (
        <Skeleton key={index} height={240} radius="md" />
      ))}
    </SimpleGrid>
  );
}
