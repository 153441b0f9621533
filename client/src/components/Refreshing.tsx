import { Box, Progress } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * Holds a list that is being replaced by a newer read. The old rows stay at full contrast (dimming
 * them fails WCAG contrast for as long as a slow read takes) and a thin bar runs over the top edge,
 * laid over the content so nothing shifts; `aria-busy` tells assistive technology the same.
 */
export function Refreshing({ active, children }: { active: boolean; children: ReactNode }) {
  return (
    <Box pos="relative" aria-busy={active}>
      {active && (
        <Progress
          value={100}
          animated
          size={3}
          radius={0}
          aria-label="Updating the results"
          pos="absolute"
          top={0}
          left={0}
          right={0}
          style={{ zIndex: 1 }}
        />
      )}
      {children}
    </Box>
  );
}
