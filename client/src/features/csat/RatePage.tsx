import { MESSAGES } from '@helpdesk/protocol';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconMoodHappy } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams, useSearch } from 'wouter';
import { screenMessage, statusOf } from '../../api/ApiError';
import { csatApi } from '../../api/csat';
import { queryKeys } from '../../api/queryKeys';
import { AuthCard } from '../../components/AuthCard';
import { CsatForm, type CsatAnswer } from '../../components/csat/CsatForm';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PageLoader } from '../../components/PageLoader';
import { RATE_TEXT } from './texts';

/**
 * /rate/:token?rating=… (docs/product.md#satisfaction-survey), open to anyone with the link. Opening
 * it records nothing: the link's rating is only preselected, and Send records the answer.
 */
export default function RatePage() {
  const { token } = useParams<{ token: string }>();
  const linkRating = new URLSearchParams(useSearch()).get('rating');
  const survey = useQuery({
    queryKey: queryKeys.csat.link(token),
    queryFn: ({ signal }) => csatApi.read(token, signal),
    retry: (count, error) => statusOf(error) !== 404 && count < 2,
  });
  // What was sent last, to show again when the visitor changes their answer.
  const [sent, setSent] = useState<CsatAnswer | null>(null);
  const [thanked, setThanked] = useState(false);
  const send = useMutation({
    mutationFn: (answer: CsatAnswer) => csatApi.answer(token, answer),
    onSuccess: (_answer, answer) => {
      setSent(answer);
      setThanked(true);
    },
  });

  let body;
  if (survey.data && thanked) {
    body = (
      <Stack gap="md" align="center">
        <Alert color="green" variant="light" icon={<IconCircleCheck />} role="status" w="100%">
          {MESSAGES.csat.thanks}
        </Alert>
        <Button variant="subtle" onClick={() => setThanked(false)}>
          {RATE_TEXT.change}
        </Button>
      </Stack>
    );
  } else if (survey.data) {
    const last = survey.data.survey;
    body = (
      <Stack gap="md">
        {send.isError && (
          <ErrorAlert
            // The link ended meanwhile (a newer resolution, or its last day passed).
            message={statusOf(send.error) === 404 ? MESSAGES.csat.linkInvalid : screenMessage(send.error, RATE_TEXT.sendFailed)}
          />
        )}
        <CsatForm
          rating={sent?.rating ?? linkRating ?? last.rating}
          comment={sent?.comment ?? last.comment}
          sending={send.isPending}
          onSend={(answer) => send.mutate(answer)}
        />
      </Stack>
    );
  } else if (statusOf(survey.error) === 404) {
    body = (
      <Alert color="orange" variant="light" role="alert">
        {MESSAGES.csat.linkInvalid}
      </Alert>
    );
  } else if (survey.isError) {
    body = <ErrorAlert message={RATE_TEXT.loadFailed} error={survey.error} />;
  } else {
    body = <PageLoader />;
  }

  const ticket = survey.data?.survey;
  return (
    <AuthCard
      title={RATE_TEXT.title}
      icon={<IconMoodHappy size={28} />}
      width={520}
      subtitle={ticket && <Text span>{RATE_TEXT.ticket(ticket.ticketId, ticket.title)}</Text>}
    >
      {body}
    </AuthCard>
  );
}
