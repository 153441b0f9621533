import type { Notification } from '@helpdesk/protocol';
import { ActionIcon, Badge, Button, Group, Indicator, Popover, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconBell, IconCheck } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { notificationsMarkedRead } from '../../api/notificationCache';
import { notificationQuery, notificationsApi } from '../../api/notifications';
import { formatDateTime, fromNow } from '../../lib/dates';

const WHAT: Record<Notification['type'], (by: string, ticketId: number | null) => string> = {
  mention: (by, id) => `${by} mentioned you on #${id}`,
  assigned: (by, id) => `${by} assigned #${id} to you`,
  reply: (by, id) => `${by} replied on #${id}`,
  sla_warning: (_by, id) => `SLA deadline near on #${id}`,
  sla_breached: (_by, id) => `SLA deadline missed on #${id}`,
  webhook_disabled: () => 'A webhook was turned off',
};

/** Where a notice leads: its ticket, or for a webhook turned off, the Webhooks page. */
const hrefOf = (notification: Notification) => (notification.ticketId === null ? '/admin/webhooks' : `/ticket/${notification.ticketId}`);

export const bellLabel = (unread: number) => (unread === 0 ? 'Notifications' : `Notifications, ${unread} unread`);

function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids?: number[]) => notificationsApi.markRead(ids),
    onSuccess: ({ unread }, ids) => notificationsMarkedRead(client, ids, unread),
  });
}

function NotificationItem({ notification, onOpen }: { notification: Notification; onOpen: () => void }) {
  const unread = notification.readAt === null;
  return (
    <UnstyledButton
      component={Link}
      href={hrefOf(notification)}
      onClick={onOpen}
      p="xs"
      style={{ borderRadius: 'var(--mantine-radius-sm)', background: unread ? 'var(--mantine-color-blue-light)' : undefined }}
      data-testid="notification"
    >
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Text size="sm" fw={unread ? 700 : 400}>
          {WHAT[notification.type](notification.by.name, notification.ticketId)}
        </Text>
        {unread && (
          <Badge size="xs" variant="filled">
            New
          </Badge>
        )}
      </Group>
      <Text size="xs" c="dimmed" lineClamp={2}>
        {notification.excerpt}
      </Text>
      <Text size="xs" c="dimmed" title={formatDateTime(notification.createdAt)}>
        {fromNow(notification.createdAt)}
      </Text>
    </UnstyledButton>
  );
}

/**
 * The bell in the top navigation (docs/product.md#notifications): the unread count, live through the
 * `notification` socket event, and a panel of the latest with links to their tickets. Opening one
 * marks it read; "Mark all read" clears the count.
 */
export function NotificationBell() {
  const [opened, setOpened] = useState(false);
  const { data } = useQuery(notificationQuery());
  const markRead = useMarkRead();
  const unread = data?.unread ?? 0;
  const notifications = data?.notifications ?? [];

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={340} shadow="md" withArrow trapFocus>
      {/* The target is the button itself, so aria-expanded and aria-haspopup land on a button (axe). */}
      <Indicator label={unread > 99 ? '99+' : unread} size={18} disabled={unread === 0} color="red" offset={4} data-testid="bell-count">
        <Popover.Target>
          <ActionIcon variant="subtle" size="lg" aria-label={bellLabel(unread)} onClick={() => setOpened((o) => !o)}>
            <IconBell size={20} />
          </ActionIcon>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown aria-label="Notifications" role="dialog">
        <Group justify="space-between" mb="xs">
          <Text fw={700}>Notifications</Text>
          <Button
            size="compact-xs"
            variant="subtle"
            leftSection={<IconCheck size={14} />}
            disabled={unread === 0}
            loading={markRead.isPending}
            onClick={() => markRead.mutate(undefined)}
          >
            Mark all read
          </Button>
        </Group>
        {notifications.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing yet. Mentions, assignments, replies and SLA deadlines on your tickets show up here.
          </Text>
        ) : (
          <ScrollArea.Autosize mah={380}>
            <Stack gap={4}>
              {notifications.map((n) => (
                <NotificationItem
                  key={n.id}
                  notification={n}
                  onOpen={() => {
                    if (!n.readAt) markRead.mutate([n.id]);
                    setOpened(false);
                  }}
                />
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
