import type { HistoryType } from '@helpdesk/protocol';
import { IconCirclePlus, IconFlag, IconMessage, IconNotes, IconPencil, IconRefresh, IconUserCheck } from '@tabler/icons-react';
import { createElement, type ComponentType } from 'react';

/** Each change's mark in the thread; a type the client does not know yet (tags, merged) gets the generic one. */
const ICONS: Partial<Record<HistoryType, ComponentType<{ size?: number }>>> = {
  created: IconCirclePlus,
  status: IconRefresh,
  priority: IconFlag,
  edited: IconPencil,
  resolution: IconNotes,
  assigned: IconUserCheck,
  comment: IconMessage,
};

/** The change's mark as an element, so no component is picked during a render. */
export function HistoryIcon({ type, size }: { type: string; size?: number }) {
  const Icon = ICONS[type as HistoryType] ?? IconRefresh;
  return createElement(Icon, { size });
}
