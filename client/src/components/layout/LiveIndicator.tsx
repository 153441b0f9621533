import { Badge } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { liveStatusAtom } from '../../realtime/liveStatus';

/** A quiet pill while the socket is (re)connecting; the offline banner explains when it lasts. */
export function LiveIndicator() {
  const status = useAtomValue(liveStatusAtom);
  if (status === 'connected') return null;
  return (
    <Badge color={status === 'connecting' ? 'gray' : 'orange'} variant="dot" data-testid="live-indicator">
      {status === 'connecting' ? 'Connecting…' : 'Live updates paused'}
    </Badge>
  );
}
