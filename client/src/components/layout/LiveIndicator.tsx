import { Badge, Tooltip } from '@mantine/core';
import { useAtomValue } from 'jotai';
import { liveStatusAtom } from '../../realtime/liveStatus';

/** Shown only while live updates are not flowing; a connected socket needs no decoration. */
export function LiveIndicator() {
  const status = useAtomValue(liveStatusAtom);
  if (status === 'connected') return null;
  return (
    <Tooltip label="Changes made by others will appear when the connection returns">
      <Badge color={status === 'connecting' ? 'gray' : 'orange'} variant="dot" data-testid="live-indicator">
        {status === 'connecting' ? 'Connecting…' : 'Live updates paused'}
      </Badge>
    </Tooltip>
  );
}
