import { canManageUsers, formatBytes, type EmailSettings, type InboundMessage, type InboundStatus } from '@helpdesk/protocol';
import { Anchor, Badge, Button, Card, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload, IconMailOpened } from '@tabler/icons-react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { Link } from 'wouter';
import { ApiError } from '../../api/ApiError';
import { emailApi } from '../../api/email';
import { queryKeys } from '../../api/queryKeys';
import { EmptyState } from '../../components/EmptyState';
import { ErrorAlert } from '../../components/ErrorAlert';
import { NoPermission } from '../../components/NoPermission';
import { RetryButton } from '../../components/RetryButton';
import { formatDateTime } from '../../lib/dates';
import { notifyError, notifySuccess } from '../../lib/notify';
import { userAtom } from '../../state/session';
import { EMAIL_TEXT } from './texts';
import { useScreenUnder } from '../../lib/useScreenUnder';

const STATUS_COLORS: Record<InboundStatus, string> = {
  queued: 'gray',
  ticket: 'green',
  comment: 'green',
  note: 'teal',
  ignored: 'yellow',
  rejected: 'orange',
  failed: 'red',
};

/** The settings as rows of a definition list; secrets are never sent by the server. */
function settingRows(settings: EmailSettings): [string, string][] {
  return [
    ['Support address', settings.supportAddress],
    ['SMTP listener', settings.smtp ? `${settings.smtp.host}:${settings.smtp.port ?? '?'}` : EMAIL_TEXT.off],
    [
      'IMAP mailbox',
      settings.imap
        ? `${settings.imap.url} (done folder ${settings.imap.doneFolder}, every ${settings.imap.pollMs / 1000} s without IDLE)`
        : EMAIL_TEXT.off,
    ],
    ['Accounts for new senders', settings.createUsers ? 'Created (without a password)' : 'Not created: their mail is rejected'],
    ['Largest message', formatBytes(settings.maxBytes)],
    ['Per sender', `${settings.maxPerSenderPerHour} tickets and comments an hour`],
  ];
}

function SettingsCard() {
  const settings = useQuery({ queryKey: queryKeys.email.settings, queryFn: ({ signal }) => emailApi.settings(signal) });
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="email-settings-title">
      <Title order={2} size="h4" id="email-settings-title">
        {EMAIL_TEXT.settingsTitle}
      </Title>
      <Text c="dimmed" size="sm" mb="sm">
        {EMAIL_TEXT.settingsHint}
      </Text>
      {settings.isPending ? (
        <Skeleton height={120} radius="sm" />
      ) : settings.isError ? (
        <ErrorAlert message={EMAIL_TEXT.settingsFailed} error={settings.error} />
      ) : (
        <Stack gap={6} component="dl" m={0}>
          {settingRows(settings.data.settings).map(([label, value]) => (
            // Side by side on a wide screen; on a phone every label sits above its value, alike for all rows.
            <Group key={label} gap="xs" style={{ rowGap: 2 }} wrap="wrap" align="baseline">
              <Text component="dt" fw={500} size="sm" w={{ base: '100%', sm: 200 }}>
                {label}
              </Text>
              <Text component="dd" m={0} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {value}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}

function MessageActions({ message }: { message: InboundMessage }) {
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: () => emailApi.retry(message.id),
    onSuccess: (answer) => {
      notifySuccess(answer.message);
      void queryClient.invalidateQueries({ queryKey: queryKeys.email.inbound });
    },
    onError: (error) => notifyError((error instanceof ApiError ? error.serverMessage : undefined) ?? EMAIL_TEXT.retryFailed),
  });
  const download = useMutation({
    mutationFn: () => emailApi.downloadRaw(message.id),
    onError: () => notifyError(EMAIL_TEXT.downloadFailed),
  });
  return (
    <Group gap="xs" justify="flex-end" wrap="nowrap">
      {message.status === 'failed' && (
        <RetryButton label={`Retry message ${message.id}`} pending={retry.isPending} onRetry={() => retry.mutate()} />
      )}
      <Button
        size="xs"
        variant="subtle"
        leftSection={<IconDownload size={14} />}
        loading={download.isPending}
        onClick={() => download.mutate()}
        // The visible word begins the name (axe: label-content-name-mismatch); the number says which.
        aria-label={`Download message ${message.id}`}
      >
        Download
      </Button>
    </Group>
  );
}

const Received = ({ message }: { message: InboundMessage }) => (
  <time dateTime={message.receivedAt}>{formatDateTime(message.receivedAt)}</time>
);

function MessageStatus({ message }: { message: InboundMessage }) {
  return (
    <>
      <Badge variant="light" color={STATUS_COLORS[message.status]}>
        {message.status}
      </Badge>
      {message.reason && (
        <Text size="xs" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
          {message.reason}
        </Text>
      )}
    </>
  );
}

const TicketLink = ({ message }: { message: InboundMessage }) =>
  message.ticketId === null ? (
    '—'
  ) : (
    <Anchor component={Link} href={`/tickets/${message.ticketId}`} size="sm">
      #{message.ticketId}
    </Anchor>
  );

/** A phone's row: the same fields stacked, so nothing hides past the screen's edge. */
function MessageCard({ message }: { message: InboundMessage }) {
  return (
    <Paper withBorder radius="md" p="sm" data-testid={`inbound-row-${message.id}`}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Text size="sm" fw={600} lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
          {message.subject ?? '—'}
        </Text>
        <Stack gap={2} align="flex-end" style={{ flexShrink: 0 }}>
          <MessageStatus message={message} />
        </Stack>
      </Group>
      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
        {message.from ?? '—'}
      </Text>
      <Group justify="space-between" mt={6} gap="xs">
        <Text size="xs" c="dimmed">
          <Received message={message} />
          {' · '}
          <TicketLink message={message} />
        </Text>
        <MessageActions message={message} />
      </Group>
    </Paper>
  );
}

function MessagesCard() {
  const phone = useScreenUnder(36);
  const messages = useInfiniteQuery({
    queryKey: queryKeys.email.inbound,
    queryFn: ({ pageParam, signal }) => emailApi.inbound(pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => (last.hasMore ? last.messages.at(-1)?.id : undefined),
  });
  const rows = messages.data?.pages.flatMap((page) => page.messages) ?? [];
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-labelledby="email-messages-title">
      <Title order={2} size="h4" id="email-messages-title" mb="sm">
        {EMAIL_TEXT.messagesTitle}
      </Title>
      {messages.isPending ? (
        <Stack gap="sm">
          {[0, 1, 2].map((row) => (
            <Skeleton key={row} height={40} radius="sm" />
          ))}
        </Stack>
      ) : messages.isError ? (
        <ErrorAlert message={EMAIL_TEXT.messagesFailed} error={messages.error} />
      ) : rows.length === 0 ? (
        <EmptyState title={EMAIL_TEXT.empty} description={EMAIL_TEXT.emptyHint} icon={<IconMailOpened size={30} />} />
      ) : (
        <Stack gap="md">
          {phone ? (
            <Stack gap="sm">
              {rows.map((message) => (
                <MessageCard key={message.id} message={message} />
              ))}
            </Stack>
          ) : (
            <Table.ScrollContainer minWidth={760}>
              <Table verticalSpacing="xs" highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Received</Table.Th>
                    <Table.Th>From</Table.Th>
                    <Table.Th>Subject</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Ticket</Table.Th>
                    <Table.Th ta="right">Actions</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((message) => (
                    <Table.Tr key={message.id} data-testid={`inbound-row-${message.id}`}>
                      <Table.Td>
                        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                          <Received message={message} />
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                          {message.from ?? '—'}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
                          {message.subject ?? '—'}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <MessageStatus message={message} />
                      </Table.Td>
                      <Table.Td>
                        <TicketLink message={message} />
                      </Table.Td>
                      <Table.Td>
                        <MessageActions message={message} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {messages.hasNextPage && (
            <Group justify="center">
              <Button variant="default" loading={messages.isFetchingNextPage} onClick={() => void messages.fetchNextPage()}>
                {EMAIL_TEXT.loadMore}
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </Card>
  );
}

/** The mail intake for admins: settings in force, recent messages, retry and raw download (docs/product.md#email-admin). */
export default function EmailAdminPage() {
  const me = useAtomValue(userAtom);
  if (!me || !canManageUsers(me)) return <NoPermission />;
  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          {EMAIL_TEXT.title}
        </Title>
        <Text c="dimmed" size="sm">
          {EMAIL_TEXT.intro}
        </Text>
      </div>
      <SettingsCard />
      <MessagesCard />
    </Stack>
  );
}
