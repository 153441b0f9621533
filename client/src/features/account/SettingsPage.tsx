import { Card, Group, SimpleGrid, Skeleton, Stack, Text, TextInput, ThemeIcon, Title } from '@mantine/core';
import { isStaff } from '@helpdesk/protocol';
import { IconBell, IconKey, IconLock, IconSettings, IconUserCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { queryKeys } from '../../api/queryKeys';
import { usersApi } from '../../api/users';
import { ErrorAlert } from '../../components/ErrorAlert';
import { labelOf } from '../../lib/text';
import { userAtom } from '../../state/session';
import { ApiTokens } from './ApiTokens';
import { ChangePasswordForm } from './ChangePasswordForm';
import { NotificationPreferences } from './NotificationPreferences';

export const LOAD_FAILED = 'Failed to load preferences';

function Section({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="lg" padding="lg">
      <Stack gap="md">
        <Group gap="sm">
          <ThemeIcon variant="light" size={36} radius="md">
            {icon}
          </ThemeIcon>
          <Title order={2} size="h4">
            {title}
          </Title>
        </Group>
        {children}
      </Stack>
    </Card>
  );
}

/** Settings (docs/product.md#settings): the account read-only, and the email preference saved as it is chosen. */
export default function SettingsPage() {
  const sessionUser = useAtomValue(userAtom);
  const profile = useQuery({ queryKey: queryKeys.users.profile, queryFn: ({ signal }) => usersApi.profile(signal) });
  // The stored user answers at once; the profile call brings the current values.
  const account = profile.data?.user ?? sessionUser;

  return (
    <Stack gap="lg">
      <Group gap="sm">
        <ThemeIcon size={44} radius="md" variant="gradient" gradient={{ from: 'blue', to: 'cyan' }}>
          <IconSettings size={26} />
        </ThemeIcon>
        <div>
          <Title order={1} size="h2">
            Settings
          </Title>
          <Text c="dimmed" size="sm">
            Your account and how we keep you informed.
          </Text>
        </div>
      </Group>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Section icon={<IconUserCircle size={22} />} title="Account">
          {account && (
            <Stack gap="sm">
              <TextInput label="Name" value={account.name} readOnly variant="filled" />
              <TextInput label="Email" value={account.email} readOnly variant="filled" />
              <TextInput label="Role" value={labelOf(account.role)} readOnly variant="filled" />
            </Stack>
          )}
        </Section>

        <Section icon={<IconBell size={22} />} title="Notifications">
          {profile.isPending && <Skeleton height={180} radius="md" data-testid="preferences-loading" />}
          {profile.isError && <ErrorAlert message={LOAD_FAILED} error={profile.error} />}
          {profile.isSuccess && <NotificationPreferences saved={profile.data.user.email_notifications} />}
        </Section>

        <Section icon={<IconLock size={22} />} title="Password">
          <ChangePasswordForm />
        </Section>
      </SimpleGrid>

      {account && isStaff(account) && (
        <Section icon={<IconKey size={22} />} title="Tokens">
          <ApiTokens myId={account.id} />
        </Section>
      )}
    </Stack>
  );
}
