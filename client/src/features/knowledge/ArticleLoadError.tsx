import { Button, Card, Stack } from '@mantine/core';
import { IconArrowLeft, IconFileOff } from '@tabler/icons-react';
import { Link } from 'wouter';
import { statusOf } from '../../api/ApiError';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { KNOWLEDGE_TEXT as T } from './texts';

export function BackToKnowledgeBase() {
  return (
    <Button component={Link} href="/knowledge" variant="subtle" leftSection={<IconArrowLeft size={16} />} px={0} w="fit-content">
      {T.backToList}
    </Button>
  );
}

/** A missing article says so; any other failure is 'Failed to load article' (docs/product.md#article-page). */
export function ArticleLoadError({ error }: { error: unknown }) {
  return (
    <Stack gap="md">
      <BackToKnowledgeBase />
      {statusOf(error) === 404 ? (
        <Card withBorder radius="md">
          <EmptyState
            heading="h1"
            title={T.notFound}
            description="It may have been removed, or the link is not quite right."
            icon={<IconFileOff size={30} />}
          />
        </Card>
      ) : (
        <ErrorAlert message={T.loadArticleFailed} error={error} />
      )}
    </Stack>
  );
}
