import { Alert } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { isApiError } from '../api/ApiError';

/** The screen's message as the title, with the HTTP catalogue text beneath when it adds something (docs/product.md#error-messages). */
export function ErrorAlert({ message, error, title }: { message: string; error?: unknown; title?: string }) {
  const detail = isApiError(error) && error.message !== message ? error.message : undefined;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle />} title={title ?? message} role="alert">
      {title ? message : detail}
      {title && detail ? ` ${detail}` : null}
    </Alert>
  );
}
