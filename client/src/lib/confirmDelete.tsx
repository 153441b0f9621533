import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';

/**
 * Asks before deleting (or revoking): the question in the screen's own words, a red button named for
 * what it does (Delete unless told) and a Cancel.
 */
export function confirmDelete({
  title,
  question,
  onConfirm,
  confirm = 'Delete',
}: {
  title: string;
  question: string;
  onConfirm: () => void;
  confirm?: string;
}): void {
  modals.openConfirmModal({
    title,
    centered: true,
    children: <Text size="sm">{question}</Text>,
    labels: { confirm, cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    onConfirm,
  });
}
