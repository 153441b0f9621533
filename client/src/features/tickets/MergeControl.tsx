import { Button, Group, NumberInput, Stack } from '@mantine/core';
import { IconArrowMerge } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'wouter';
import { screenMessage } from '../../api/ApiError';
import { deskApi } from '../../api/desk';
import { queryKeys } from '../../api/queryKeys';
import { ticketSaved } from '../../api/ticketCache';
import { ErrorAlert } from '../../components/ErrorAlert';
import { notifySuccess } from '../../lib/notify';

export const MERGE_TEXT = { label: 'Merge into ticket #', action: 'Merge', failed: 'Failed to merge the ticket' } as const;

/**
 * Staff merge this ticket into another of the same requester (docs/decisions.md#ticket-page-panels):
 * the server closes this one with a link to the other and answers with the other, which opens.
 */
export function MergeControl({ ticketId }: { ticketId: number }) {
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [into, setInto] = useState<number | ''>('');
  const merge = useMutation({
    mutationFn: (intoId: number) => deskApi.merge(ticketId, intoId),
    onSuccess: ({ ticket }) => {
      void ticketSaved(client, ticket);
      // Both tickets are the same requester's: their panel lists the merged one as closed now.
      void client.invalidateQueries({ queryKey: queryKeys.desk.requesterTickets(ticket.user.id) });
      notifySuccess(`Ticket #${ticketId} merged into #${ticket.id}`);
      navigate(`/ticket/${ticket.id}`);
    },
  });
  return (
    <Stack gap="xs">
      {merge.isError && <ErrorAlert message={screenMessage(merge.error, MERGE_TEXT.failed)} error={merge.error} />}
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <NumberInput
          label={MERGE_TEXT.label}
          value={into}
          onChange={(value) => setInto(typeof value === 'number' ? value : '')}
          min={1}
          allowDecimal={false}
          hideControls
          style={{ flex: 1 }}
        />
        <Button
          variant="default"
          leftSection={<IconArrowMerge size={16} />}
          disabled={into === '' || into === ticketId}
          loading={merge.isPending}
          onClick={() => into !== '' && merge.mutate(into)}
        >
          {MERGE_TEXT.action}
        </Button>
      </Group>
    </Stack>
  );
}
