import type { Article } from '@helpdesk/protocol';
import { Button, type ButtonProps } from '@mantine/core';
import { IconThumbUp, IconThumbUpFilled } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useHelpfulVote } from './useHelpfulVote';

/** Marks the article helpful; what it says is up to the caller (the count, or the article page's question). */
export function HelpfulButton({ article, children, ...props }: { article: Article; children: ReactNode } & ButtonProps) {
  const vote = useHelpfulVote();
  // Only this reader's own click changes the look; counts from others arrive through the cache.
  const [voted, setVoted] = useState(false);
  return (
    <Button
      variant={voted ? 'light' : 'subtle'}
      color="teal"
      leftSection={voted ? <IconThumbUpFilled size={18} /> : <IconThumbUp size={18} />}
      loading={vote.isPending}
      aria-pressed={voted}
      // One vote per reader and page: the server counts a signed-in reader once, a visitor every time.
      onClick={() => !voted && vote.mutate(article.id, { onSuccess: () => setVoted(true) })}
      {...props}
    >
      {children}
    </Button>
  );
}
