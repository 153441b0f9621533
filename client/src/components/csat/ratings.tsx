import { MESSAGES, type CsatRating } from '@helpdesk/protocol';
import { IconMoodHappy, IconMoodNeutral, IconMoodSad, type Icon } from '@tabler/icons-react';

/** How each rating looks wherever it is chosen or shown: the survey page, the owner's and staff's ticket page. */
export const RATING_LOOK: Record<CsatRating, { label: string; icon: Icon; color: string }> = {
  good: { label: MESSAGES.csat.ratingLabels.good, icon: IconMoodHappy, color: 'green' },
  neutral: { label: MESSAGES.csat.ratingLabels.neutral, icon: IconMoodNeutral, color: 'yellow' },
  bad: { label: MESSAGES.csat.ratingLabels.bad, icon: IconMoodSad, color: 'red' },
};
