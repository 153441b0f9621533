import { useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { socketAtom } from '../../realtime/collaboration';
import { refetchReportsOn } from './liveRefetch';

export { LIVE_REFETCH_MS } from './liveRefetch';

/** While the page is mounted, ticket changes refetch the reports on screen (liveRefetch.ts). */
export function useLiveReports(): void {
  const client = useQueryClient();
  const socket = useAtomValue(socketAtom);
  useEffect(() => (socket ? refetchReportsOn(socket, client) : undefined), [client, socket]);
}
