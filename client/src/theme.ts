import { createTheme, type CSSVariablesResolver } from '@mantine/core';

/** The page's main landmark (components/layout/AppLayout.tsx); the skip link leads there. */
export const MAIN_CONTENT_ID = 'main-content';
const MAIN_PORTAL = { target: `#${MAIN_CONTENT_ID}` };
// Chromium makes a scroller without focusable children a Tab stop: inline after its input, a long
// option list took the focus, closed on the blur and left it on <body>. The listbox scrolls itself
// and leaves the Tab order (options are reached with the arrows). Mantine's scroll area would put a
// non-option viewport inside the listbox; options that can take the focus (never by Tab) tell axe
// the scrolled content is reachable.
const OPTION_LIST = {
  defaultProps: { withScrollArea: false, attributes: { options: { tabIndex: -1 }, option: { tabIndex: -1 } } },
  styles: { options: { maxHeight: 'calc(15rem * var(--mantine-scale))', overflowY: 'auto' as const } },
};

export const theme = createTheme({
  primaryColor: 'blue',
  defaultRadius: 'md',
  // No autoContrast: it judges by Mantine's own shades, not the darker ones set below, under which
  // white text always reads.
  // Visitors who ask their system for less motion get dialogs and menus without transitions.
  respectReducedMotion: true,
  fontFamily: 'Inter, -apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif',
  headings: { fontWeight: '700' },
  components: {
    Card: { defaultProps: { shadow: 'xs' } },
    Paper: { defaultProps: { shadow: 'xs' } },
    // Icon-only close buttons get a name (Mantine leaves them unnamed).
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } },
    // A dialog's <header> would be a second "banner" landmark beside the page's.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' }, attributes: { header: { role: 'presentation' } } } },
    // Inline rather than in a portal at the end of <body>, so tips, option lists and menus stay inside
    // the page's landmarks (axe: all content in landmarks).
    Tooltip: { defaultProps: { withinPortal: false } },
    // Option lists render when opened: kept mounted, every Select positioned its hidden list on load.
    Combobox: { defaultProps: { withinPortal: false, keepMounted: false } },
    Select: OPTION_LIST,
    MultiSelect: OPTION_LIST,
    TagsInput: OPTION_LIST,
    Autocomplete: OPTION_LIST,
    // One that must escape a clipping container (a queue row's menus, the canned reply picker) opens
    // in a portal inside the main landmark, not at the end of <body>.
    Popover: { defaultProps: { withinPortal: false, portalProps: MAIN_PORTAL } },
    // Without Mantine's focus placeholder a menu holds only its items (axe: aria-required-children).
    Menu: { defaultProps: { withinPortal: false, portalProps: MAIN_PORTAL, withInitialFocusPlaceholder: false } },
  },
});

/**
 * Text-safe shades: Mantine's default shade 6 gives 2.3–3.6:1 for text on white or on the light
 * tints (blue 3.55, teal 2.55, orange and green about 3). These reach at least 4.5:1 (WCAG AA) as
 * text on white, on their own 10 % tint and under white text when filled, hovered included.
 */
const READABLE_BLUE = '#1864ab';
const READABLE_RED = '#b02525';
export const READABLE: Record<string, { base: string; hover: string }> = {
  blue: { base: READABLE_BLUE, hover: '#144f86' },
  red: { base: READABLE_RED, hover: '#8f1e1e' },
  green: { base: '#1f6b30', hover: '#185426' },
  teal: { base: '#066649', hover: '#05523b' },
  orange: { base: '#a33a0b', hover: '#852f09' },
  yellow: { base: '#7a5000', hover: '#614000' },
  cyan: { base: '#0a6070', hover: '#084d5a' },
  violet: { base: '#5f3dc4', hover: '#4c31a0' },
  grape: { base: '#862e9c', hover: '#6c257e' },
  indigo: { base: '#364fc7', hover: '#2b3fa0' },
  pink: { base: '#a61e4d', hover: '#86183e' },
  lime: { base: '#4a6b0f', hover: '#3b560c' },
  gray: { base: '#495057', hover: '#343a40' },
};

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-anchor': READABLE_BLUE,
    '--mantine-color-error': READABLE_RED,
    ...Object.fromEntries(
      Object.entries(READABLE).flatMap(([color, { base, hover }]) => [
        [`--mantine-color-${color}-filled`, base],
        [`--mantine-color-${color}-filled-hover`, hover],
        [`--mantine-color-${color}-light-color`, base],
        [`--mantine-color-${color}-outline`, base],
        [`--mantine-color-${color}-text`, base],
      ]),
    ),
  },
  dark: {},
});
