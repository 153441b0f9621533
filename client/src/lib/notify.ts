import { LIMITS } from '@helpdesk/protocol';
import { notifications } from '@mantine/notifications';

/** Snackbars hide after 6 seconds (docs/product.md#limits). */
export const notifySuccess = (message: string, title?: string) =>
  notifications.show({ color: 'green', title, message, autoClose: LIMITS.snackbarMs });

export const notifyError = (message: string, title?: string) =>
  notifications.show({ color: 'red', title, message, autoClose: LIMITS.snackbarMs });
