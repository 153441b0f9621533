import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';

/** Asks before deleting: the question in the screen's own words, a red Delete and a Cancel. */
export function confirmDelete({ title, question, onConfirm }: { title: string; question: string; onConfirm: () => void }): void {
  modals.openConfirmModal({
    title,
    centered: true,
    children: <Text size="sm">{question}</Text>,
    labels: { confirm: 'Delete', cancel: 'Cancel' },
    confirmProps: { color: 'red' },
    onConfirm,
  });
}
