import type { PresenceEvent, PresenceViewer } from '@helpdesk/protocol';
import { atom } from 'jotai';
import type { HelpdeskSocket } from './socket';

/** The session's socket while one is open, so pages can say where their user is (presence). */
export const socketAtom = atom<HelpdeskSocket | null>(null);

/** Who is on each ticket, as the server last said (staff only receive it). */
export const presenceAtom = atom<ReadonlyMap<number, PresenceViewer[]>>(new Map());

export const withPresence = (
  current: ReadonlyMap<number, PresenceViewer[]>,
  { ticketId, viewers }: PresenceEvent,
): ReadonlyMap<number, PresenceViewer[]> => {
  const next = new Map(current);
  if (viewers.length === 0) next.delete(ticketId);
  else next.set(ticketId, viewers);
  return next;
};
