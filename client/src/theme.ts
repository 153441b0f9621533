import { createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  // Visitors who ask their system for less motion get dialogs and menus without transitions.
  respectReducedMotion: true,
  fontFamily: 'Inter, -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif',
  headings: { fontWeight: '700' },
  components: {
    Card: { defaultProps: { shadow: 'xs' } },
    Paper: { defaultProps: { shadow: 'xs' } },
  },
});
