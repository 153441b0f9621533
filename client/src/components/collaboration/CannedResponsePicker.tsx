import { fillPlaceholders, isStaff, type CannedResponse, type Ticket, type TicketResponse } from '@helpdesk/protocol';
import { ActionIcon, Button, Popover, ScrollArea, Stack, Text, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconSearch, IconTemplate } from '@tabler/icons-react';
import { useAtomValue } from 'jotai';
import { useState, type KeyboardEvent } from 'react';
import { ticketKeys } from '../../api/ticketCache';
import { userAtom } from '../../state/session';
import classes from './CannedResponsePicker.module.css';
import { useCannedResponses } from './useCannedResponses';

export type PlaceholderTicket = Pick<Ticket, 'id' | 'title' | 'user'>;

interface CannedResponsePickerProps {
  /** The ticket being answered; without `ticket` it is read from the open ticket's cached detail. */
  ticketId: number;
  ticket?: PlaceholderTicket;
  /** Gets the response with its placeholders filled. */
  onInsert: (text: string) => void;
  /** The icon alone (a phone's reply box), named for screen readers and on hover. */
  compact?: boolean;
}

const CANNED_PICKER = 'Insert canned response';

const matches = (item: CannedResponse, filter: string) => {
  const needle = filter.trim().toLowerCase();
  return needle === '' || item.title.toLowerCase().includes(needle) || item.content.toLowerCase().includes(needle);
};

/**
 * "Insert canned response" for staff beside a reply box: type to filter, pick one, and its
 * {{customer.name}}, {{ticket.id}}, {{ticket.title}} and {{agent.name}} are filled for this ticket.
 * Renders nothing for users.
 */
export function CannedResponsePicker(props: CannedResponsePickerProps) {
  const user = useAtomValue(userAtom);
  const staff = user !== null && isStaff(user);
  if (!staff) return null;
  return <Picker {...props} agentName={user.name} />;
}

function Picker({ ticketId, ticket, onInsert, agentName, compact = false }: CannedResponsePickerProps & { agentName: string }) {
  const client = useQueryClient();
  const [opened, setOpened] = useState(false);
  const [filter, setFilter] = useState('');
  const canned = useCannedResponses();
  const shown = (canned.data?.cannedResponses ?? []).filter((item) => matches(item, filter));

  const insert = (item: CannedResponse) => {
    const target = ticket ?? client.getQueryData<TicketResponse>(ticketKeys.detail(ticketId))?.ticket;
    onInsert(
      fillPlaceholders(item.content, {
        customerName: target?.user.name ?? '',
        ticketId,
        ticketTitle: target?.title ?? '',
        agentName,
      }),
    );
    setOpened(false);
    setFilter('');
  };
  const onFilterKey = (event: KeyboardEvent<HTMLInputElement>) => {
    const first = shown[0];
    if (event.key === 'Enter' && first) {
      event.preventDefault();
      insert(first);
    }
  };

  return (
    // Focus goes back to the picker's button when it closes (a pick, Escape), not to the page's body.
    <Popover opened={opened} onChange={setOpened} position="bottom-start" width={340} shadow="md" trapFocus returnFocus withinPortal>
      <Popover.Target>
        {compact ? (
          <Tooltip label={CANNED_PICKER}>
            <ActionIcon variant="default" size="lg" aria-label={CANNED_PICKER} onClick={() => setOpened((o) => !o)}>
              <IconTemplate size={18} />
            </ActionIcon>
          </Tooltip>
        ) : (
          // The size of "Attach files" beside it.
          <Button variant="default" leftSection={<IconTemplate size={16} />} onClick={() => setOpened((o) => !o)}>
            {CANNED_PICKER}
          </Button>
        )}
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          <TextInput
            label="Filter canned responses"
            placeholder="Type to filter"
            leftSection={<IconSearch size={14} />}
            value={filter}
            onChange={(event) => setFilter(event.currentTarget.value)}
            onKeyDown={onFilterKey}
            data-autofocus
          />
          <ScrollArea.Autosize mah={240}>
            {canned.isPending && <Text size="sm">Loading...</Text>}
            {!canned.isPending && shown.length === 0 && (
              <Text size="sm" c="dimmed">
                No canned responses match.
              </Text>
            )}
            {/* A list of buttons: each item holds its button, so both roles are heard; no items, no list. */}
            {shown.length > 0 && (
              <Stack gap={4} role="list" aria-label="Canned responses">
                {shown.map((item) => (
                  <div key={item.id} role="listitem">
                    <UnstyledButton className={classes.item} onClick={() => insert(item)}>
                      <Text size="sm" fw={600}>
                        {item.title}
                      </Text>
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {item.content}
                      </Text>
                    </UnstyledButton>
                  </div>
                ))}
              </Stack>
            )}
          </ScrollArea.Autosize>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
