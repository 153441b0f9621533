import { PRIORITIES, policyBody, type PolicyBody, type SlaCalendar, type SlaPolicy } from '@helpdesk/protocol';
import { Button, Group, Modal, NumberInput, Select, Stack, Switch, Table, TagsInput, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { isApiError, screenMessage } from '../../api/ApiError';
import { ErrorAlert } from '../../components/ErrorAlert';
import { schemaResolver } from '../../lib/schemaResolver';
import { PRIORITY_LABELS, SLA_TEXT, durationText } from './texts';
import { useSavePolicy } from './useSlaData';

const AROUND_THE_CLOCK = '';
const emptyTargets = (): PolicyBody['targets'] => ({
  urgent: { firstResponseMinutes: null, resolutionMinutes: null },
  high: { firstResponseMinutes: null, resolutionMinutes: null },
  medium: { firstResponseMinutes: null, resolutionMinutes: null },
  low: { firstResponseMinutes: null, resolutionMinutes: null },
});

function PolicyForm({ policy, calendars, onClose }: { policy: SlaPolicy | null; calendars: SlaCalendar[]; onClose: () => void }) {
  const form = useForm<PolicyBody>({
    mode: 'controlled',
    initialValues: policy
      ? {
          name: policy.name,
          calendarId: policy.calendarId,
          requesterDomains: policy.requesterDomains,
          targets: policy.targets,
          warnBeforeMinutes: policy.warnBeforeMinutes,
          active: policy.active,
        }
      : {
          name: '',
          calendarId: calendars[0]?.id ?? null,
          requesterDomains: [],
          targets: emptyTargets(),
          warnBeforeMinutes: 30,
          active: true,
        },
    validate: schemaResolver(policyBody),
  });
  const save = useSavePolicy(policy, onClose);
  const values = form.getValues();
  const minutesField = (path: string, label: string, value: number | null) => {
    const error = form.errors[path];
    return (
      <NumberInput
        aria-label={label}
        size="xs"
        min={1}
        allowDecimal={false}
        placeholder="none"
        value={value ?? ''}
        error={error}
        description={value === null ? undefined : durationText(value)}
        onChange={(next) => form.setFieldValue(path, typeof next === 'number' ? next : null)}
      />
    );
  };

  return (
    <form
      noValidate
      onSubmit={form.onSubmit((body) => save.mutate(body, { onError: (error) => isApiError(error) && form.setErrors(error.fieldErrors) }))}
    >
      <Stack gap="md">
        {save.isError && <ErrorAlert message={screenMessage(save.error, SLA_TEXT.saveFailed)} />}
        <TextInput label="Name" placeholder="Standard support" data-autofocus {...form.getInputProps('name')} />
        <Select
          label="Business calendar"
          data={[
            { value: AROUND_THE_CLOCK, label: SLA_TEXT.aroundTheClock },
            ...calendars.map((c) => ({ value: String(c.id), label: c.name })),
          ]}
          value={values.calendarId === null ? AROUND_THE_CLOCK : String(values.calendarId)}
          allowDeselect={false}
          error={form.errors.calendarId}
          onChange={(next) => form.setFieldValue('calendarId', next ? Number(next) : null)}
        />
        <TagsInput
          label="Requester email domains"
          description="Leave empty for everyone. Press Enter after each domain."
          placeholder="example.com"
          {...form.getInputProps('requesterDomains')}
        />
        <div>
          <Text fw={600} size="sm" id="targets-label">
            Targets in minutes of business time
          </Text>
          <Table aria-labelledby="targets-label" verticalSpacing={4} withRowBorders={false}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Priority</Table.Th>
                <Table.Th>First response</Table.Th>
                <Table.Th>Resolution</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {[...PRIORITIES].reverse().map((priority) => (
                <Table.Tr key={priority}>
                  <Table.Td>{PRIORITY_LABELS[priority]}</Table.Td>
                  <Table.Td>
                    {minutesField(
                      `targets.${priority}.firstResponseMinutes`,
                      `${PRIORITY_LABELS[priority]} first response minutes`,
                      values.targets[priority].firstResponseMinutes,
                    )}
                  </Table.Td>
                  <Table.Td>
                    {minutesField(
                      `targets.${priority}.resolutionMinutes`,
                      `${PRIORITY_LABELS[priority]} resolution minutes`,
                      values.targets[priority].resolutionMinutes,
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {[...PRIORITIES].map((priority) => {
            const error = form.errors[`targets.${priority}`];
            return error ? (
              <Text key={priority} c="red" size="sm" role="alert">
                {PRIORITY_LABELS[priority]}: {error}
              </Text>
            ) : null;
          })}
        </div>
        <NumberInput
          label="Warn this many minutes before a deadline"
          min={0}
          allowDecimal={false}
          {...form.getInputProps('warnBeforeMinutes')}
        />
        <Switch label="Active" {...form.getInputProps('active', { type: 'checkbox' })} />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {policy ? 'Save Changes' : 'Add Policy'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export interface PolicyDialogState {
  opened: boolean;
  policy: SlaPolicy | null;
  opening: number;
}

export function PolicyDialog({ state, calendars, onClose }: { state: PolicyDialogState; calendars: SlaCalendar[]; onClose: () => void }) {
  return (
    <Modal opened={state.opened} onClose={onClose} title={state.policy ? 'Edit Policy' : 'Add Policy'} centered radius="lg" size="lg">
      <PolicyForm key={state.opening} policy={state.policy} calendars={calendars} onClose={onClose} />
    </Modal>
  );
}
