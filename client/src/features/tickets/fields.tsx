import { PRIORITIES, type TicketStatus } from '@helpdesk/protocol';
import {
  Alert,
  Select,
  Text,
  TextInput,
  Textarea,
  type ComboboxItem,
  type SelectProps,
  type TextInputProps,
  type TextareaProps,
} from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { CATEGORY_OPTIONS } from '../../components/CategoryChip';
import { ErrorAlert } from '../../components/ErrorAlert';
import { saveFailureMessage } from './failures';
import { labelledOptions, labelOf } from '../../lib/text';

/** "12/200" under a field; red once the text is longer than allowed. */
function Counter({ length, max }: { length: number; max: number }) {
  return (
    <Text size="xs" c={length > max ? 'red' : 'dimmed'} ta="right" mt={4} aria-live="polite">
      {length}/{max}
    </Text>
  );
}

const lengthOf = (value: unknown) => (typeof value === 'string' ? value.length : 0);

export function CountedTextInput({ max, ...props }: TextInputProps & { max: number }) {
  return (
    <div>
      <TextInput {...props} />
      <Counter length={lengthOf(props.value)} max={max} />
    </div>
  );
}

export function CountedTextarea({ max, ...props }: TextareaProps & { max: number }) {
  return (
    <div>
      <Textarea autosize minRows={6} maxRows={16} {...props} />
      <Counter length={lengthOf(props.value)} max={max} />
    </div>
  );
}

/** The ticket title with its length rule in the help text (create 5-200, edit 3-100). */
export function TicketTitleInput({ limits, ...props }: TextInputProps & { limits: { min: number; max: number } }) {
  return (
    <CountedTextInput
      label="Title"
      description={`A short summary of the issue (${limits.min}-${limits.max} characters)`}
      withAsterisk
      {...props}
      max={limits.max}
    />
  );
}

/** Above a ticket form: the screen's success text once saved, or the save's failure message. */
export function SaveFeedback({
  done,
  successText,
  error,
  failureText,
}: {
  done: boolean;
  successText: string;
  error: unknown;
  failureText: string;
}) {
  if (done) {
    return (
      <Alert color="green" variant="light" icon={<IconCircleCheck />} role="status">
        {successText}
      </Alert>
    );
  }
  return error ? <ErrorAlert message={saveFailureMessage(error, failureText)} error={error} /> : null;
}

const priorityOptions = labelledOptions(PRIORITIES);

export function PrioritySelect(props: Omit<SelectProps, 'data'>) {
  return <Select label="Priority" data={priorityOptions} allowDeselect={false} withCheckIcon={false} {...props} />;
}

/** What the ticket is about: the owner's pick at creation; staff change it on the ticket page. */
export function CategorySelect(props: Omit<SelectProps, 'data'>) {
  return <Select label="Category" data={CATEGORY_OPTIONS} allowDeselect={false} withCheckIcon={false} {...props} />;
}

/** What an owner may pick: open, resolved, or closed to withdraw the request; in progress and waiting are support's. */
export const OWNER_STATUSES = ['open', 'resolved', 'closed'] as const satisfies readonly TicketStatus[];

/**
 * The statuses an owner may pick (docs/product.md#ticket-lifecycle). A ticket support set in
 * progress or waiting on the customer shows that status, not to be chosen again.
 */
export function StatusSelect({ current, ...props }: Omit<SelectProps, 'data'> & { current?: string }) {
  const data: ComboboxItem[] = labelledOptions(OWNER_STATUSES);
  if (current === 'in_progress' || current === 'pending') data.splice(1, 0, { value: current, label: labelOf(current), disabled: true });
  return <Select label="Status" data={data} allowDeselect={false} withCheckIcon={false} {...props} />;
}
