import { calendarBody, type CalendarBody, type SlaCalendar } from '@helpdesk/protocol';
import { ActionIcon, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { isApiError, screenMessage } from '../../api/ApiError';
import { ErrorAlert } from '../../components/ErrorAlert';
import { schemaResolver } from '../../lib/schemaResolver';
import { localZone, timeZones } from '../../lib/timeZones';
import { SLA_TEXT, WEEK } from './texts';
import { useSaveCalendar } from './useSlaData';

const MAX_PER_DAY = 4;
type CalendarFields = UseFormReturnType<CalendarBody>;

/** Every zone the browser knows, for a searchable picker; UTC first. */
const TIME_ZONES = timeZones();

const OFFICE_WEEK: CalendarBody['hours'] = [1, 2, 3, 4, 5].map((day) => ({ day, start: '09:00', end: '17:00' }));

/** One row a weekday: its opening intervals as HH:MM fields, added and removed in place. */
function WeeklyHours({ form }: { form: CalendarFields }) {
  const hours = form.getValues().hours;
  return (
    <Stack gap={6} role="group" aria-labelledby="weekly-hours-label">
      <Group justify="space-between">
        <Text id="weekly-hours-label" fw={600} size="sm">
          Weekly opening hours
        </Text>
        <Button size="compact-sm" variant="subtle" onClick={() => form.setFieldValue('hours', OFFICE_WEEK)}>
          Mon–Fri 09:00–17:00
        </Button>
      </Group>
      {WEEK.map(({ day, name }) => {
        const intervals = hours.flatMap((interval, index) => (interval.day === day ? [{ interval, index }] : []));
        return (
          <Group key={day} gap="xs" align="flex-start" wrap="nowrap">
            <Text size="sm" w={92} pt={6}>
              {name}
            </Text>
            <Stack gap={4} style={{ flex: 1 }}>
              {intervals.length === 0 && (
                <Text size="sm" c="dimmed" pt={6}>
                  Closed
                </Text>
              )}
              {intervals.map(({ interval, index }) => (
                <Group key={index} gap={6} wrap="nowrap">
                  <TextInput
                    aria-label={`${name} opens`}
                    placeholder="09:00"
                    w={76}
                    size="xs"
                    {...form.getInputProps(`hours.${index}.start`)}
                  />
                  <Text size="sm">–</Text>
                  <TextInput
                    aria-label={`${name} closes`}
                    placeholder="17:00"
                    w={76}
                    size="xs"
                    {...form.getInputProps(`hours.${index}.end`)}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove ${name} ${interval.start}–${interval.end}`}
                    onClick={() => form.removeListItem('hours', index)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
              ))}
            </Stack>
            <Button
              size="compact-xs"
              variant="light"
              leftSection={<IconPlus size={14} />}
              disabled={intervals.length >= MAX_PER_DAY}
              aria-label={`Add opening hours on ${name}`}
              onClick={() => form.insertListItem('hours', { day, start: '09:00', end: '17:00' })}
            >
              Hours
            </Button>
          </Group>
        );
      })}
      {typeof form.errors.hours === 'string' && (
        <Text c="red" size="sm" role="alert">
          {form.errors.hours}
        </Text>
      )}
    </Stack>
  );
}

function Holidays({ form }: { form: CalendarFields }) {
  const holidays = form.getValues().holidays;
  return (
    <Stack gap={6} role="group" aria-labelledby="holidays-label">
      <Group justify="space-between">
        <Text id="holidays-label" fw={600} size="sm">
          Holidays (closed all day)
        </Text>
        <Button
          size="compact-sm"
          variant="light"
          leftSection={<IconPlus size={14} />}
          onClick={() => form.insertListItem('holidays', { date: '', name: '' })}
        >
          Add holiday
        </Button>
      </Group>
      {holidays.length === 0 && (
        <Text size="sm" c="dimmed">
          None
        </Text>
      )}
      {holidays.map((_holiday, index) => (
        <Group key={index} gap={6} align="flex-start" wrap="nowrap">
          <TextInput
            type="date"
            aria-label={`Holiday ${index + 1} date`}
            w={150}
            size="xs"
            {...form.getInputProps(`holidays.${index}.date`)}
          />
          <TextInput
            aria-label={`Holiday ${index + 1} name`}
            placeholder="New Year"
            size="xs"
            style={{ flex: 1 }}
            {...form.getInputProps(`holidays.${index}.name`)}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Remove holiday ${index + 1}`}
            onClick={() => form.removeListItem('holidays', index)}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
    </Stack>
  );
}

function CalendarForm({ calendar, onClose }: { calendar: SlaCalendar | null; onClose: () => void }) {
  const form = useForm<CalendarBody>({
    mode: 'controlled',
    initialValues: calendar
      ? { name: calendar.name, timeZone: calendar.timeZone, hours: calendar.hours, holidays: calendar.holidays }
      : { name: '', timeZone: localZone(), hours: OFFICE_WEEK, holidays: [] },
    validate: schemaResolver(calendarBody),
  });
  const save = useSaveCalendar(calendar, onClose);
  return (
    <form
      noValidate
      onSubmit={form.onSubmit((values) =>
        save.mutate(values, { onError: (error) => isApiError(error) && form.setErrors(error.fieldErrors) }),
      )}
    >
      <Stack gap="md">
        {save.isError && <ErrorAlert message={screenMessage(save.error, SLA_TEXT.saveFailed)} />}
        <TextInput label="Name" placeholder="Berlin office" data-autofocus {...form.getInputProps('name')} />
        <Select label="Time zone" searchable data={TIME_ZONES} allowDeselect={false} {...form.getInputProps('timeZone')} />
        <WeeklyHours form={form} />
        <Holidays form={form} />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {calendar ? 'Save Changes' : 'Add Calendar'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export interface CalendarDialogState {
  opened: boolean;
  calendar: SlaCalendar | null;
  opening: number;
}

export function CalendarDialog({ state, onClose }: { state: CalendarDialogState; onClose: () => void }) {
  return (
    <Modal opened={state.opened} onClose={onClose} title={state.calendar ? 'Edit Calendar' : 'Add Calendar'} centered radius="lg" size="lg">
      <CalendarForm key={state.opening} calendar={state.calendar} onClose={onClose} />
    </Modal>
  );
}
