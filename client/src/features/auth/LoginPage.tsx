import type { LoginBody } from '@helpdesk/protocol';
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconInfoCircle, IconLock, IconLogin } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { Link, useLocation, useSearch } from 'wouter';
import { authApi } from '../../api/auth';
import { ErrorAlert } from '../../components/ErrorAlert';
import { homePath } from '../../state/home';
import { clearSession, setSession, signOutReasonAtom } from '../../state/session';
import { AuthCard } from '../../components/AuthCard';
import { LOGIN_TEXT, loginErrorMessage, sessionFrom } from './authErrors';
import { useLazyValidation } from '../../lib/useLazyValidation';
import { returnPathOf, withReturnPath } from '../../routing/returnPath';
import { EmailInput } from './EmailInput';
import { PasswordField } from '../../components/PasswordField';

export const SESSION_NOTICE = {
  expired: 'Your session has expired. Please log in again.',
  loggedOut: 'You have been logged out.',
} as const;

/** Why the visitor is back here: logged out on purpose, or sent by an expired session (docs/product.md#login). */
function SessionNotice() {
  const reason = useAtomValue(signOutReasonAtom);
  const loggedOut = reason === 'logout';
  return (
    <Alert color={loggedOut ? 'blue' : 'yellow'} variant="light" icon={<IconInfoCircle />} data-testid="session-notice">
      {loggedOut ? SESSION_NOTICE.loggedOut : SESSION_NOTICE.expired}
    </Alert>
  );
}

/** /login (docs/product.md#login). */
export default function LoginPage() {
  const [, navigate] = useLocation();
  const search = useSearch();
  const queryClient = useQueryClient();
  const returnTo = returnPathOf(search);
  const validation = useLazyValidation(() => import('./loginValidation').then((m) => m.validateLogin));
  const form = useForm<LoginBody>({
    initialValues: { email: '', password: '' },
    validate: validation.validate,
  });

  const login = useMutation({
    mutationFn: async (values: LoginBody) => {
      // A new sign-in starts from nothing, not from what the last account left behind (docs/product.md#sessions).
      clearSession();
      queryClient.clear();
      return sessionFrom(await authApi.login(values), LOGIN_TEXT.invalidResponse);
    },
    onSuccess: (session) => {
      setSession(session);
      // Where the visitor was going before being asked to sign in (a link in a notification email).
      navigate(returnTo ?? homePath(session.user.role), { replace: true });
    },
  });

  const sessionEnded = new URLSearchParams(search).get('session_expired') === 'true';

  return (
    <AuthCard
      title="HelpDesk Login"
      subtitle="Sign in to follow your tickets and reach our support team."
      icon={<IconLogin size={28} />}
      footer={
        <Text size="sm" c="dimmed">
          Don&apos;t have an account?{' '}
          <Anchor component={Link} href={withReturnPath('/signup', returnTo)} fw={600}>
            Sign up here
          </Anchor>
        </Text>
      }
    >
      {sessionEnded && !login.isPending && !login.isError && <SessionNotice />}
      {login.isError && <ErrorAlert message={loginErrorMessage(login.error)} />}
      <form
        onFocus={validation.prepare}
        onSubmit={(event) => {
          event.preventDefault();
          // A submit that beats the lazily loaded checks waits for them rather than skipping them.
          void validation.ready().then(() => form.onSubmit((values) => login.mutate(values))());
        }}
        noValidate
      >
        <Stack gap="md">
          <EmailInput {...form.getInputProps('email')} />
          <PasswordField
            label="Password"
            autoComplete="current-password"
            placeholder="Your password"
            leftSection={<IconLock size={16} />}
            {...form.getInputProps('password')}
          />
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} href="/reset-password" size="sm">
              Forgot Password?
            </Anchor>
          </Group>
          <Button type="submit" fullWidth size="md" loading={login.isPending}>
            Login
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
