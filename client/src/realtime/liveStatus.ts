import { atom } from 'jotai';

/** Whether live updates are flowing; the header shows an indicator when they are not. */
export type LiveStatus = 'connecting' | 'connected' | 'disconnected';
export const liveStatusAtom = atom<LiveStatus>('connecting');

/** The server's own reason for refusing the socket (e.g. too many open connections), shown as is. */
export const liveRefusalAtom = atom<string | null>(null);

/** Tries the connection again at once; set while a socket exists. */
export const liveRetryAtom = atom<{ retry: () => void } | null>(null);
