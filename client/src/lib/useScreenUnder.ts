import { useMediaQuery } from '@mantine/hooks';

/**
 * Whether the screen is narrower than `em`, read at once rather than after the first paint: a phone
 * would otherwise build the wide layout and throw it away.
 */
export const useScreenUnder = (em: 36 | 48): boolean => useMediaQuery(`(max-width: ${em}em)`, false, { getInitialValueInEffect: false });

/** Under 48em: the queue is cards, the reply box folds its status sends into a menu. */
export const usePhone = (): boolean => useScreenUnder(48);
