import { canManageUsers, type Webhook } from '@helpdesk/protocol';
import { Alert, Badge, Button, Card, Collapse, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPlus, IconWebhook } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { screenMessage } from '../../api/ApiError';
import { queryKeys } from '../../api/queryKeys';
import { webhooksApi } from '../../api/webhooks';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { NoPermission } from '../../components/NoPermission';
import { SecretOnce } from '../../components/SecretOnce';
import { confirmDelete } from '../../lib/confirmDelete';
import { notifyError, notifySuccess } from '../../lib/notify';
import { userAtom } from '../../state/session';
import { DeliveryLog } from './DeliveryLog';
import { WEBHOOKS_TEXT } from './texts';
import { WebhookDialog, type Saved, type WebhookDialogState } from './WebhookDialog';

/** The secret just made for one webhook: shown above the list until the page is left. */
type ShownSecret = { webhookId: number; secret: string };

/** The actions on one webhook, each telling how it went. */
function useWebhookActions(onSecret: (shown: ShownSecret) => void, onTested: (id: number) => void) {
  const client = useQueryClient();
  const failed = (error: Error) => notifyError(screenMessage(error, WEBHOOKS_TEXT.actionFailed));
  const refresh = () => client.invalidateQueries({ queryKey: queryKeys.webhooks.all });
  return {
    test: useMutation({
      mutationFn: (webhook: Webhook) => webhooksApi.test(webhook.id),
      onSuccess: (answer, webhook) => {
        notifySuccess(answer.message);
        onTested(webhook.id);
        void refresh();
      },
      onError: failed,
    }),
    rotate: useMutation({
      mutationFn: (webhook: Webhook) => webhooksApi.rotateSecret(webhook.id),
      onSuccess: (answer) => onSecret({ webhookId: answer.webhook.id, secret: answer.secret }),
      onError: failed,
    }),
    remove: useMutation({
      mutationFn: (webhook: Webhook) => webhooksApi.remove(webhook.id),
      onSuccess: (answer) => {
        notifySuccess(answer.message);
        void refresh();
      },
      onError: failed,
    }),
  };
}

function WebhookCard({
  webhook,
  logOpen,
  onToggleLog,
  onEdit,
  actions,
}: {
  webhook: Webhook;
  logOpen: boolean;
  onToggleLog: () => void;
  onEdit: () => void;
  actions: ReturnType<typeof useWebhookActions>;
}) {
  const name = webhook.description || webhook.url;
  return (
    <Card withBorder radius="lg" padding="md" component="section" aria-label={`Webhook ${name}`} data-testid={`webhook-${webhook.id}`}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Stack gap={2} style={{ minWidth: 0 }}>
            {webhook.description && (
              <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {webhook.description}
              </Text>
            )}
            <Text
              size="sm"
              c={webhook.description ? 'dimmed' : undefined}
              fw={webhook.description ? 400 : 600}
              style={{ overflowWrap: 'anywhere' }}
            >
              {webhook.url}
            </Text>
          </Stack>
          <Badge variant="light" color={webhook.active ? 'green' : 'gray'} style={{ flexShrink: 0 }}>
            {webhook.active ? WEBHOOKS_TEXT.on : WEBHOOKS_TEXT.off}
          </Badge>
        </Group>
        {webhook.disabledReason && (
          <Alert color="orange" variant="light" p="xs">
            <Text size="sm">{webhook.disabledReason}</Text>
          </Alert>
        )}
        <Group gap={4}>
          {webhook.events.map((event) => (
            <Badge key={event} size="sm" variant="outline" tt="none">
              {event}
            </Badge>
          ))}
          {webhook.includeInternal && (
            <Badge size="sm" variant="light" color="grape" tt="none">
              {WEBHOOKS_TEXT.internalNotes}
            </Badge>
          )}
        </Group>
        <Group gap="xs">
          <Button size="xs" variant="light" onClick={onToggleLog} aria-expanded={logOpen}>
            {logOpen ? WEBHOOKS_TEXT.hideDeliveries : WEBHOOKS_TEXT.deliveries}
          </Button>
          <Button
            size="xs"
            variant="default"
            disabled={!webhook.active}
            loading={actions.test.isPending && actions.test.variables.id === webhook.id}
            onClick={() => actions.test.mutate(webhook)}
          >
            {WEBHOOKS_TEXT.test}
          </Button>
          <Button size="xs" variant="default" onClick={onEdit} aria-label={`${WEBHOOKS_TEXT.edit} webhook ${name}`}>
            {WEBHOOKS_TEXT.edit}
          </Button>
          <Button
            size="xs"
            variant="default"
            onClick={() =>
              confirmDelete({
                title: WEBHOOKS_TEXT.rotateTitle,
                question: WEBHOOKS_TEXT.rotateQuestion,
                confirm: WEBHOOKS_TEXT.rotate,
                onConfirm: () => actions.rotate.mutate(webhook),
              })
            }
          >
            {WEBHOOKS_TEXT.rotate}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            aria-label={`Delete webhook ${name}`}
            onClick={() =>
              confirmDelete({
                title: WEBHOOKS_TEXT.deleteTitle,
                question: WEBHOOKS_TEXT.deleteQuestion(webhook.url),
                onConfirm: () => actions.remove.mutate(webhook),
              })
            }
          >
            Delete
          </Button>
        </Group>
        <Collapse in={logOpen}>{logOpen && <DeliveryLog webhookId={webhook.id} />}</Collapse>
      </Stack>
    </Card>
  );
}

function Webhooks() {
  const client = useQueryClient();
  const list = useQuery({ queryKey: queryKeys.webhooks.list, queryFn: ({ signal }) => webhooksApi.list(signal) });
  const [dialog, setDialog] = useState<WebhookDialogState>({ opened: false, webhook: null, opening: 0 });
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const [openLogs, setOpenLogs] = useState<ReadonlySet<number>>(new Set());
  const openLog = (id: number) => setOpenLogs((open) => new Set(open).add(id));
  const toggleLog = (id: number) =>
    setOpenLogs((open) => {
      const next = new Set(open);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const actions = useWebhookActions(setShown, (id) => {
    openLog(id);
    void client.invalidateQueries({ queryKey: queryKeys.webhooks.deliveries(id) });
  });
  const openDialog = (webhook: Webhook | null) => setDialog((d) => ({ opened: true, webhook, opening: d.opening + 1 }));
  const closeDialog = () => setDialog((d) => ({ ...d, opened: false }));
  const saved = ({ webhook, secret }: Saved) => {
    closeDialog();
    if (secret) setShown({ webhookId: webhook.id, secret });
    void client.invalidateQueries({ queryKey: queryKeys.webhooks.list });
  };
  const webhooks = list.data?.webhooks ?? [];
  const shownFor = webhooks.find((webhook) => webhook.id === shown?.webhookId);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={1} size="h2">
            {WEBHOOKS_TEXT.title}
          </Title>
          <Text c="dimmed" size="sm">
            {WEBHOOKS_TEXT.intro}
          </Text>
        </div>
        <Button leftSection={<IconPlus size={16} />} onClick={() => openDialog(null)}>
          {WEBHOOKS_TEXT.add}
        </Button>
      </Group>
      {shown && shownFor && (
        <SecretOnce
          title={`${WEBHOOKS_TEXT.secretTitle}: ${shownFor.description || shownFor.url}`}
          hint={WEBHOOKS_TEXT.secretHint}
          secret={shown.secret}
          testId="webhook-secret"
        />
      )}
      {list.isPending ? (
        <Skeleton height={120} radius="lg" />
      ) : list.isError ? (
        <ErrorAlert message={WEBHOOKS_TEXT.loadFailed} error={list.error} />
      ) : webhooks.length === 0 ? (
        <EmptyState title={WEBHOOKS_TEXT.empty} description={WEBHOOKS_TEXT.emptyHint} icon={<IconWebhook size={30} />} />
      ) : (
        <Stack gap="md">
          {webhooks.map((webhook) => (
            <WebhookCard
              key={webhook.id}
              webhook={webhook}
              logOpen={openLogs.has(webhook.id)}
              onToggleLog={() => toggleLog(webhook.id)}
              onEdit={() => openDialog(webhook)}
              actions={actions}
            />
          ))}
        </Stack>
      )}
      <WebhookDialog state={dialog} onSaved={saved} onClose={closeDialog} />
    </Stack>
  );
}

/** Admins' outgoing webhooks (docs/product.md#webhooks): endpoints, their secrets, tests and delivery logs. */
export default function WebhooksPage() {
  const me = useAtomValue(userAtom);
  if (!me || !canManageUsers(me)) return <NoPermission />;
  return <Webhooks />;
}
