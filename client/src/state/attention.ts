import { atom } from 'jotai';
import { store } from './store';

/** Live changes by others that arrived while this tab was in the background; shown in the tab title. */
export const unseenChangesAtom = atom(0);

/** The latest live change in words, read out by screen readers through a polite live region. */
export const announcementAtom = atom<{ text: string; at: number } | null>(null);

/** Records a live change: counted while the tab is hidden, and announced either way. */
export function noteLiveChange(text: string): void {
  if (typeof document !== 'undefined' && document.visibilityState === 'hidden') store.set(unseenChangesAtom, (n) => n + 1);
  store.set(announcementAtom, { text, at: Date.now() });
}

export const clearUnseenChanges = (): void => store.set(unseenChangesAtom, 0);
