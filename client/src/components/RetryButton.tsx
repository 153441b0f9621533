import { Button } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';

/** "Retry" on a row that failed (a mail that was not filed, a webhook delivery); `label` names the row. */
export function RetryButton({ label, pending, onRetry }: { label: string; pending: boolean; onRetry: () => void }) {
  return (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconRefresh size={14} />}
      loading={pending}
      onClick={onRetry}
      // The visible word begins the name (axe: label-content-name-mismatch).
      aria-label={label}
      style={{ flexShrink: 0 }}
    >
      Retry
    </Button>
  );
}
