import type { HistoryType } from '@helpdesk/protocol';
import { IconCirclePlus, IconFlag, IconMessage, IconNotes, IconPencil, IconRefresh, IconUserCheck } from '@tabler/icons-react';
import type { ComponentType } from 'react';

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

export const historyIcon = (type: HistoryType | string): ComponentType<{ size?: number }> => ICONS[type as HistoryType] ?? IconRefresh;
