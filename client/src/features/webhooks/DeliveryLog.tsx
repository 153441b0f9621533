import type { WebhookDelivery } from '@helpdesk/protocol';
import { Badge, Button, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { screenMessage } from '../../api/ApiError';
import { queryKeys } from '../../api/queryKeys';
import { webhooksApi } from '../../api/webhooks';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RetryButton } from '../../components/RetryButton';
import { formatDateTime, fromNow } from '../../lib/dates';
import { notifyError, notifySuccess } from '../../lib/notify';
import { DELIVERY_COLORS, WEBHOOKS_TEXT } from './texts';

const PENDING_REFRESH_MS = 2_000;

/** One delivery: what was sent, what became of it, and for a failed one, a retry. */
function DeliveryRow({ delivery, webhookId }: { delivery: WebhookDelivery; webhookId: number }) {
  const client = useQueryClient();
  const retry = useMutation({
    mutationFn: () => webhooksApi.retry(delivery.id),
    onSuccess: (answer) => {
      notifySuccess(answer.message);
      void client.invalidateQueries({ queryKey: queryKeys.webhooks.deliveries(webhookId) });
    },
    onError: (error) => notifyError(screenMessage(error, WEBHOOKS_TEXT.retryFailed)),
  });
  const when = delivery.lastAttemptAt ?? delivery.createdAt;
  const answer = delivery.lastStatusCode === null ? 'no answer' : `HTTP ${delivery.lastStatusCode}`;
  return (
    <Paper withBorder radius="md" p="xs" data-testid={`delivery-${delivery.id}`}>
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap={6}>
            <Badge variant="light" color={DELIVERY_COLORS[delivery.status]}>
              {delivery.status}
            </Badge>
            <Text size="sm" fw={500}>
              {delivery.event}
            </Text>
          </Group>
          <Text size="xs" c="dimmed">
            <time dateTime={when} title={formatDateTime(when)}>
              {fromNow(when)}
            </time>
            {' · '}
            {delivery.attempts} {delivery.attempts === 1 ? 'attempt' : 'attempts'}
            {delivery.attempts > 0 && ` · ${answer}`}
            {delivery.durationMs !== null && ` · ${delivery.durationMs} ms`}
          </Text>
          {delivery.lastError && (
            <Text size="xs" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
              {delivery.lastError}
            </Text>
          )}
        </Stack>
        {delivery.status === 'failed' && (
          <RetryButton label={`${WEBHOOKS_TEXT.retry} delivery ${delivery.id}`} pending={retry.isPending} onRetry={() => retry.mutate()} />
        )}
      </Group>
    </Paper>
  );
}

/** A webhook's delivery log, newest first, a page at a time. */
export function DeliveryLog({ webhookId }: { webhookId: number }) {
  const log = useInfiniteQuery({
    queryKey: queryKeys.webhooks.deliveries(webhookId),
    queryFn: ({ pageParam, signal }) => webhooksApi.deliveries(webhookId, pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.hasMore ? last.deliveries.at(-1)?.id : undefined),
    // A pending delivery is sent within seconds, or retried later: the log follows it while one waits.
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.deliveries.some((delivery) => delivery.status === 'pending'))
        ? PENDING_REFRESH_MS
        : false,
  });
  const rows = log.data?.pages.flatMap((page) => page.deliveries) ?? [];
  if (log.isPending) return <Skeleton height={48} radius="sm" />;
  if (log.isError) return <ErrorAlert message={WEBHOOKS_TEXT.deliveriesFailed} error={log.error} />;
  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {WEBHOOKS_TEXT.noDeliveries}
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      {rows.map((delivery) => (
        <DeliveryRow key={delivery.id} delivery={delivery} webhookId={webhookId} />
      ))}
      {log.hasNextPage && (
        <Group justify="center">
          <Button variant="default" size="xs" loading={log.isFetchingNextPage} onClick={() => void log.fetchNextPage()}>
            {WEBHOOKS_TEXT.loadMore}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
