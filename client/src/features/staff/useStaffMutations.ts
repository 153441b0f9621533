import type { User } from '@helpdesk/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queryKeys';
import { usersApi } from '../../api/users';
import { notifyError, notifySuccess } from '../../lib/notify';
import { STAFF_TEXT } from './texts';

export type StaffValues = { name: string; email: string; password: string };

/** Adds or edits a support agent; the dialog shows failures itself, so it can be corrected there. */
export function useSaveStaff(agent: User | null, onSaved: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ name, email, password }: StaffValues) =>
      agent
        ? // The email is locked on edit, and a blank password keeps the current one (docs/product.md#support-management).
          usersApi.update(agent.id, { name, ...(password ? { password } : {}) })
        : usersApi.create({ name, email, password, role: 'agent' }),
    onSuccess: async () => {
      notifySuccess(agent ? STAFF_TEXT.updated : STAFF_TEXT.created);
      onSaved();
      await client.invalidateQueries({ queryKey: queryKeys.users.staff });
    },
  });
}

export function useDeleteStaff() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (agent: User) => usersApi.remove(agent.id),
    onSuccess: async () => {
      notifySuccess(STAFF_TEXT.deleted);
      await client.invalidateQueries({ queryKey: queryKeys.users.staff });
    },
    onError: (error) => notifyError(error.message, STAFF_TEXT.deleteFailed),
  });
}
