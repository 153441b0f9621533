import { LIMITS } from '@helpdesk/protocol';
import { Anchor, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from 'wouter';
import { noteLiveChange } from '../state/attention';
import { ticketOnScreen, type LiveNotice } from './liveNotices';

/**
 * Someone else's change: always announced to screen readers and counted in the tab title while the
 * tab is hidden; a toast with a link when it concerns a ticket other than the one on screen (that
 * page shows the change itself).
 */
export function announceLive(notice: LiveNotice | null, path: string): void {
  if (!notice) return;
  noteLiveChange(`${notice.title}. ${notice.message}`);
  if (ticketOnScreen(path) === notice.ticketId) return;
  notifications.show({
    title: notice.title,
    color: 'blue',
    autoClose: LIMITS.snackbarMs,
    message: (
      <Text size="sm" component="span" c="dark.7">
        {notice.message}.{' '}
        {!notice.title.endsWith('deleted') && (
          <Anchor component={Link} href={`/ticket/${notice.ticketId}`} size="sm" fw={600}>
            Open ticket #{notice.ticketId}
          </Anchor>
        )}
      </Text>
    ),
  });
}
