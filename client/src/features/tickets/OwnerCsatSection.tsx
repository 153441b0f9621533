import { MESSAGES, type TicketCsatSurveyResponse } from '@helpdesk/protocol';
import { Alert, Card, Stack, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { screenMessage } from '../../api/ApiError';
import { csatApi } from '../../api/csat';
import { queryKeys } from '../../api/queryKeys';
import { CsatForm, type CsatAnswer } from '../../components/csat/CsatForm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { TICKET_TEXT } from './texts';

/**
 * The owner's resolved ticket: the survey's three choices with their last answer, answered with the
 * session rather than the mailed link (docs/product.md#ticket-page). Nothing shows while there is no
 * survey to answer (none issued, or expired).
 */
export function OwnerCsatSection({ ticketId }: { ticketId: number }) {
  const client = useQueryClient();
  const key = queryKeys.csat.ticket(ticketId);
  const survey = useQuery({ queryKey: key, queryFn: ({ signal }) => csatApi.ofTicket(ticketId, signal) });
  const send = useMutation({
    mutationFn: (answer: CsatAnswer) => csatApi.answerTicket(ticketId, answer),
    onSuccess: (_message, { rating, comment }) =>
      client.setQueryData<TicketCsatSurveyResponse>(key, (held) =>
        held?.survey ? { ...held, survey: { ...held.survey, rating, comment: comment.trim() || null } } : held,
      ),
  });
  const current = survey.data?.survey;
  if (!current) return null;
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={TICKET_TEXT.csatTitle}>
      <Title order={2} size="h4" mb="sm">
        {TICKET_TEXT.csatTitle}
      </Title>
      <Stack gap="md">
        {send.isSuccess && (
          <Alert color="green" variant="light" icon={<IconCircleCheck />} role="status">
            {MESSAGES.csat.thanks}
          </Alert>
        )}
        {send.isError && <ErrorAlert message={screenMessage(send.error, TICKET_TEXT.csatFailed)} />}
        <CsatForm rating={current.rating} comment={current.comment} sending={send.isPending} onSend={(answer) => send.mutate(answer)} />
      </Stack>
    </Card>
  );
}
