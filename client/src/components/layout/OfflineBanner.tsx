import { Alert, Button, Group, Text } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { liveRefusalAtom, liveRetryAtom, liveStatusAtom, type LiveStatus } from '../../realtime/liveStatus';

/** A reconnect that takes longer than this is no blip: say so plainly. */
export const OFFLINE_GRACE_MS = 3_000;

export const OFFLINE_TEXT = {
  title: 'Live updates are offline',
  waiting: 'We cannot reach the server. Changes made by others will appear when the connection returns.',
  retry: 'Retry now',
} as const;

/**
 * Shown when the socket cannot connect: at once when the server refused it with a reason (the
 * per-account connection cap), after a short grace otherwise. Retry asks again without waiting for
 * the socket's own back-off.
 */
export function OfflineBanner() {
  const status = useAtomValue(liveStatusAtom);
  const refusal = useAtomValue(liveRefusalAtom);
  const retry = useAtomValue(liveRetryAtom);
  // The status that has lasted past the grace period; cleared (from a timer, too) once connected.
  const [lasting, setLasting] = useState<LiveStatus | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => setLasting(status === 'connected' ? null : status), status === 'connected' ? 0 : OFFLINE_GRACE_MS);
    return () => clearTimeout(timer);
  }, [status]);
  const overdue = lasting === status;

  if (status === 'connected' || (!overdue && !refusal)) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      role="alert"
      icon={<IconPlugConnectedX size={20} aria-hidden />}
      title={OFFLINE_TEXT.title}
      mb="md"
      data-testid="offline-banner"
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm" c="dark.7">
          {refusal ?? OFFLINE_TEXT.waiting}
        </Text>
        {retry && (
          <Button size="xs" variant="filled" color="orange" onClick={retry.retry}>
            {OFFLINE_TEXT.retry}
          </Button>
        )}
      </Group>
    </Alert>
  );
}
