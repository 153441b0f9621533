import { useAtomValue } from 'jotai';
import { useCallback, useState } from 'react';
import { userAtom } from '../../state/session';

/** A reply or a note not yet sent, as the browser keeps it. */
export interface Draft {
  content: string;
  /** The staff composer's mode, so a note never comes back as a reply to the customer. */
  mode: 'reply' | 'note';
}

const EMPTY: Draft = { content: '', mode: 'reply' };

/** One key per person and ticket: another account on the same browser never sees the draft. */
export const draftKey = (userId: number, ticketId: number) => `draft:${userId}:${ticketId}`;

export function readDraft(userId: number, ticketId: number): Draft {
  try {
    const stored = JSON.parse(localStorage.getItem(draftKey(userId, ticketId)) ?? 'null') as Partial<Draft> | null;
    if (!stored || typeof stored.content !== 'string') return EMPTY;
    return { content: stored.content, mode: stored.mode === 'note' ? 'note' : 'reply' };
  } catch {
    return EMPTY;
  }
}

function writeDraft(userId: number, ticketId: number, draft: Draft): void {
  try {
    // Nothing typed, nothing kept: a sent or emptied box removes the draft.
    if (draft.content.trim() === '') localStorage.removeItem(draftKey(userId, ticketId));
    else localStorage.setItem(draftKey(userId, ticketId), JSON.stringify(draft));
  } catch {
    // Storage full or refused (private mode): the draft lives in the page only.
  }
}

/**
 * The composer's text and mode, kept in localStorage per person and ticket on every change
 * (docs/decisions.md#drafts): restored after navigating away or reloading, removed once sent
 * (the composer empties its box). Written at each keystroke, so leaving the page never loses it.
 */
export function useDraft(ticketId: number) {
  const userId = useAtomValue(userAtom)?.id ?? 0;
  const [draft, setDraft] = useState<Draft>(() => readDraft(userId, ticketId));
  // Another ticket or person on the same mounted composer reads its own draft.
  const [owner, setOwner] = useState(`${userId}:${ticketId}`);
  if (owner !== `${userId}:${ticketId}`) {
    setOwner(`${userId}:${ticketId}`);
    setDraft(readDraft(userId, ticketId));
  }
  const update = useCallback(
    (change: Partial<Draft> | ((current: Draft) => Partial<Draft>)) =>
      setDraft((current) => {
        const next = { ...current, ...(typeof change === 'function' ? change(current) : change) };
        writeDraft(userId, ticketId, next);
        return next;
      }),
    [userId, ticketId],
  );
  const setContent = useCallback(
    (content: string | ((current: string) => string)) =>
      update((current) => ({ content: typeof content === 'function' ? content(current.content) : content })),
    [update],
  );
  const setMode = useCallback((mode: Draft['mode']) => update({ mode }), [update]);
  return { content: draft.content, mode: draft.mode, setContent, setMode };
}
