import { createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  // White or black text on filled colours, whichever reads better.
  autoContrast: true,
  // Visitors who ask their system for less motion get dialogs and menus without transitions.
  respectReducedMotion: true,
  fontFamily: 'Inter, -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif',
  headings: { fontWeight: '700' },
  components: {
    Card: { defaultProps: { shadow: 'xs' } },
    Paper: { defaultProps: { shadow: 'xs' } },
  },
});

/**
 * Text-safe shades: Mantine's default shade 6 gives 2.3–3.6:1 for text on white or on the light
 * tints (blue 3.55, teal 2.55, orange and green about 3). These reach at least 4.5:1 (WCAG AA) as
 * text on white, on their own 10 % tint and under white text when filled.
 */
const READABLE_BLUE = '#1864ab';
export const READABLE: Record<string, string> = {
  blue: READABLE_BLUE,
  red: '#b02525',
  green: '#1f6b30',
  teal: '#066649',
  orange: '#a33a0b',
  yellow: '#7a5000',
  cyan: '#0a6070',
  violet: '#5f3dc4',
  grape: '#862e9c',
  indigo: '#364fc7',
  pink: '#a61e4d',
  lime: '#4a6b0f',
  gray: '#495057',
};

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-anchor': READABLE_BLUE,
    ...Object.fromEntries(
      Object.entries(READABLE).flatMap(([color, value]) => [
        [`--mantine-color-${color}-filled`, value],
        [`--mantine-color-${color}-light-color`, value],
        [`--mantine-color-${color}-outline`, value],
        [`--mantine-color-${color}-text`, value],
      ]),
    ),
  },
  dark: {},
});
