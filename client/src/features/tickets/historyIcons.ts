import type { HistoryType } from '@helpdesk/protocol';
import {
  IconArrowBackUp,
  IconArrowMerge,
  IconCirclePlus,
  IconClockExclamation,
  IconCategory,
  IconFlag,
  IconMailOff,
  IconMessage,
  IconNotes,
  IconPencil,
  IconRefresh,
  IconTag,
  IconUserCheck,
} from '@tabler/icons-react';
import { createElement, type ComponentType } from 'react';

/** Each change's mark in the thread: every history type has one, so a new type fails the type check here. */
const ICONS: Record<HistoryType, ComponentType<{ size?: number }>> = {
  created: IconCirclePlus,
  status: IconRefresh,
  priority: IconFlag,
  category: IconCategory,
  edited: IconPencil,
  resolution: IconNotes,
  assigned: IconUserCheck,
  comment: IconMessage,
  follow_up: IconArrowBackUp,
  email_bounced: IconMailOff,
  tags: IconTag,
  merged: IconArrowMerge,
  sla: IconClockExclamation,
};

/** The change's mark as an element, so no component is picked during a render. */
export function HistoryIcon({ type, size }: { type: HistoryType; size?: number }) {
  return createElement(ICONS[type], { size });
}
