/** Every IANA zone the browser knows, UTC first: the choices of a time zone picker. */
export const timeZones = (): string[] => ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];

/** The browser's own zone. */
export const localZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;
