import { atom } from 'jotai';

/** Whether live updates are flowing; the header shows an indicator when they are not. */
export type LiveStatus = 'connecting' | 'connected' | 'disconnected';
export const liveStatusAtom = atom<LiveStatus>('connecting');
