import {
  canManageUsers,
  registrableRoles,
  registrationRefusal,
  signupForm,
  type AgentSignup,
  type Role,
  type User,
} from '@helpdesk/protocol';
import { Anchor, Button, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useForm, type FormErrors } from '@mantine/form';
import { IconLock, IconUser, IconUserPlus, IconUsersGroup } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { Link, useLocation, useSearch } from 'wouter';
import { returnPathOf, withReturnPath } from '../../routing/returnPath';
import { isApiError } from '../../api/ApiError';
import { authApi } from '../../api/auth';
import { queryKeys } from '../../api/queryKeys';
import { systemApi } from '../../api/system';
import { ErrorAlert } from '../../components/ErrorAlert';
import { notifySuccess } from '../../lib/notify';
import { labelOf } from '../../lib/text';
import { homePath } from '../../state/home';
import { setSession, userAtom } from '../../state/session';
import { AuthCard } from '../../components/AuthCard';
import { PASSWORD_HINT } from '../../lib/passwordHint';
import { SIGNUP_TEXT, sessionFrom, signupErrorMessage } from './authErrors';
import { schemaResolver } from '../../lib/schemaResolver';
import { EmailInput } from './EmailInput';
import { PasswordField } from '../../components/PasswordField';

type SignupValues = {
  name: string;
  email: string;
  role: Role;
  password: string;
  confirmPassword: string;
};

const validateSchema = schemaResolver(signupForm);

/** The server's own refusal, shown before sending; the server still decides. */
/** Beside the Role box whenever Agent is offered on the public sign-up. */
export const AGENT_WARNING = "Agent accounts see every customer's tickets.";

function roleRules(values: SignupValues, creator: User | null, agentSignup: AgentSignup): FormErrors {
  const refusal = registrationRefusal(creator, values.role, agentSignup);
  return refusal ? { role: refusal } : {};
}

const roleOptions = (creator: User | null, agentSignup: AgentSignup) =>
  registrableRoles(creator, agentSignup).map((role) => ({ value: role, label: labelOf(role) }));

/**
 * /signup (docs/product.md#sign-up). A visitor creates their own account and is signed in; an admin (let through by
 * the route guard) creates one for someone else and stays signed in as themselves.
 */
export default function SignupPage() {
  const [, navigate] = useLocation();
  const returnTo = returnPathOf(useSearch());
  const creator: User | null = useAtomValue(userAtom);
  // An admin here creates an account for someone else (the route guard lets only them in signed in).
  const isAdmin = creator !== null && canManageUsers(creator);
  const config = useQuery({ queryKey: queryKeys.config, queryFn: ({ signal }) => systemApi.config(signal), staleTime: Infinity });
  // Agent is offered only once the config says agent sign-up is open: not while it loads, nor if it fails.
  const agentSignup: AgentSignup = config.data?.agentSignup ?? 'closed';

  const form = useForm<SignupValues>({
    initialValues: { name: '', email: '', role: 'user', password: '', confirmPassword: '' },
    validate: (values) => ({ ...validateSchema(values), ...roleRules(values, creator, agentSignup) }),
  });

  const signup = useMutation({
    // The confirmation is checked here and never sent (docs/product.md#sign-up).
    mutationFn: async ({ confirmPassword: _confirm, ...body }: SignupValues) =>
      sessionFrom(await authApi.register(body), SIGNUP_TEXT.invalidResponse),
    onSuccess: (session) => {
      if (isAdmin) {
        notifySuccess(`Account created for ${session.user.name} (${session.user.email}) as ${labelOf(session.user.role)}`);
        navigate('/admin-dashboard');
        return;
      }
      setSession(session);
      navigate(returnTo ?? homePath(session.user.role), { replace: true });
    },
    onError: (error) => {
      if (isApiError(error)) form.setErrors(error.fieldErrors);
    },
  });

  return (
    <AuthCard
      title="Create Account"
      subtitle={
        isAdmin
          ? 'Create an account for a teammate. You stay signed in as yourself.'
          : 'Join the HelpDesk System to raise and follow support tickets.'
      }
      icon={<IconUserPlus size={28} />}
      width={560}
      footer={
        isAdmin ? (
          <Anchor component={Link} href="/admin-dashboard" size="sm">
            Back to dashboard
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            Already have an account?{' '}
            <Anchor component={Link} href={withReturnPath('/login', returnTo)} fw={600}>
              Login here
            </Anchor>
          </Text>
        )
      }
    >
      {signup.isError && <ErrorAlert message={signupErrorMessage(signup.error)} />}
      <form onSubmit={form.onSubmit((values) => signup.mutate(values))} noValidate>
        <Stack gap="md">
          <TextInput
            label="Full Name"
            autoComplete="name"
            placeholder="Jane Doe"
            leftSection={<IconUser size={16} />}
            {...form.getInputProps('name')}
          />
          <EmailInput {...form.getInputProps('email')} />
          <Select
            label="Role"
            data={roleOptions(creator, agentSignup)}
            allowDeselect={false}
            leftSection={<IconUsersGroup size={16} />}
            description={
              isAdmin
                ? 'As an administrator you may also create admin accounts.'
                : roleOptions(creator, agentSignup).some((option) => option.value === 'agent')
                  ? AGENT_WARNING
                  : undefined
            }
            {...form.getInputProps('role')}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <PasswordField
              label="Password"
              autoComplete="new-password"
              leftSection={<IconLock size={16} />}
              {...form.getInputProps('password')}
            />
            <PasswordField
              label="Confirm Password"
              autoComplete="new-password"
              leftSection={<IconLock size={16} />}
              {...form.getInputProps('confirmPassword')}
            />
          </SimpleGrid>
          <Text size="xs" c="dimmed" mt={-8}>
            {PASSWORD_HINT}
          </Text>
          <Button type="submit" fullWidth size="md" loading={signup.isPending} leftSection={<IconUserPlus size={18} />}>
            Create Account
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
