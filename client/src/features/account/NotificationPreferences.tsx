import { LIMITS, NOTIFICATION_PREFERENCES, type NotificationPreference, type UserResponse } from '@helpdesk/protocol';
import { Alert, Radio, Stack } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { screenMessage } from '../../api/ApiError';
import { queryKeys } from '../../api/queryKeys';
import { usersApi } from '../../api/users';
import { ErrorAlert } from '../../components/ErrorAlert';
import { updateSessionUser } from '../../state/session';
import { useFlashMessage } from './useFlashMessage';

export const PREFERENCE_TEXT = {
  saved: 'Email preferences updated successfully!',
  failed: 'Failed to update preferences',
} as const;

const OPTIONS: Record<NotificationPreference, { label: string; description: string }> = {
  all: {
    label: 'All notifications',
    description: 'An email for every status change and every reply from our support team on your tickets.',
  },
  important: { label: 'Important only', description: 'An email only when one of your tickets is resolved or closed.' },
  none: { label: 'None', description: 'No emails about your tickets. You can still follow them here at any time.' },
};

const isPreference = (value: string): value is NotificationPreference => (NOTIFICATION_PREFERENCES as readonly string[]).includes(value);

/**
 * A choice is saved the moment it is made (docs/product.md#settings). The radios show the choice being saved, else
 * the saved value from the profile cache, so a failed save falls back by itself.
 */
export function NotificationPreferences({ saved }: { saved: NotificationPreference }) {
  const client = useQueryClient();
  const flash = useFlashMessage(LIMITS.preferenceMessageMs);
  const save = useMutation({
    mutationFn: (preference: NotificationPreference) => usersApi.updatePreferences(preference),
    onMutate: flash.clear,
    onSuccess: ({ user }) => {
      client.setQueryData<UserResponse>(queryKeys.users.profile, { success: true, user });
      updateSessionUser(user);
      flash.show(PREFERENCE_TEXT.saved);
    },
  });
  // Held here, not read from the mutation, whose state arrives a tick late: the radio must not
  // jump back to the old value between the click and the save starting.
  const [choice, setChoice] = useState<NotificationPreference | null>(null);
  const shown = choice ?? saved;

  return (
    <Stack gap="md">
      <Radio.Group
        label="Email Notifications"
        description="Choose which emails you receive about your tickets. Changes are saved right away."
        value={shown}
        onChange={(value) => {
          if (!isPreference(value) || value === shown) return;
          setChoice(value);
          save.mutate(value, { onSettled: () => setChoice(null) });
        }}
      >
        <Stack gap="sm" mt="sm">
          {NOTIFICATION_PREFERENCES.map((preference) => (
            <Radio
              key={preference}
              value={preference}
              label={OPTIONS[preference].label}
              description={OPTIONS[preference].description}
              disabled={save.isPending}
            />
          ))}
        </Stack>
      </Radio.Group>
      {flash.message && (
        <Alert color="green" variant="light" icon={<IconCircleCheck />} role="status">
          {flash.message}
        </Alert>
      )}
      {save.isError && <ErrorAlert message={screenMessage(save.error, PREFERENCE_TEXT.failed)} />}
    </Stack>
  );
}
