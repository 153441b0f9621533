import { CSAT_RATINGS, LIMITS, MESSAGES, isCsatRating, type CsatRating } from '@helpdesk/protocol';
import { Button, Flex, Group, Radio, Stack, Text, Textarea } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { RATING_LOOK } from './ratings';

export interface CsatAnswer {
  rating: CsatRating;
  comment: string;
}

interface CsatFormProps {
  /** The choice shown at first: the link's `?rating=`, or the last answer. */
  rating: string | null;
  comment: string | null;
  sending: boolean;
  onSend: (answer: CsatAnswer) => void;
}

/**
 * The survey's three choices, an optional comment and Send (docs/product.md#satisfaction-survey):
 * nothing is recorded until Send, whatever is chosen first.
 */
export function CsatForm({ rating: initialRating, comment: initialComment, sending, onSend }: CsatFormProps) {
  const [rating, setRating] = useState<string | null>(isCsatRating(initialRating) ? initialRating : null);
  const [comment, setComment] = useState(initialComment ?? '');
  const [missing, setMissing] = useState(false);

  const send = () => {
    if (!isCsatRating(rating)) {
      setMissing(true);
      return;
    }
    onSend({ rating, comment });
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <Stack gap="md">
        <Radio.Group
          label={MESSAGES.csat.question}
          value={rating}
          onChange={(value) => {
            setRating(value);
            setMissing(false);
          }}
          error={missing ? MESSAGES.csat.ratingInvalid : undefined}
          withAsterisk
        >
          {/* One under another on a phone, where three in a row would wrap unevenly. */}
          <Flex direction={{ base: 'column', xs: 'row' }} gap={{ base: 'sm', xs: 'lg' }} mt="xs">
            {CSAT_RATINGS.map((value) => {
              const { label, icon: Icon, color } = RATING_LOOK[value];
              return (
                <Radio
                  key={value}
                  value={value}
                  color={color}
                  label={
                    <Group gap={6} wrap="nowrap">
                      <Icon size={22} aria-hidden color={`var(--mantine-color-${color}-7)`} />
                      <Text inherit>{label}</Text>
                    </Group>
                  }
                />
              );
            })}
          </Flex>
        </Radio.Group>
        <Textarea
          label="Comment (optional)"
          placeholder="Tell us what went well or what we could do better"
          autosize
          minRows={3}
          maxRows={8}
          maxLength={LIMITS.csat.commentMax}
          value={comment}
          onChange={(event) => setComment(event.currentTarget.value)}
          description={`${comment.length} / ${LIMITS.csat.commentMax} characters`}
          // The count reads as the box's running total: beneath it, as counters usually are.
          inputWrapperOrder={['label', 'input', 'description', 'error']}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={sending} leftSection={<IconSend size={16} />}>
            Send
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
