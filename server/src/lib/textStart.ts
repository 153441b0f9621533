/**
 * The first `units` UTF-16 units of a text (the unit the input limits count), one fewer where the
 * cut would halve a character written as two of them (an emoji), whose lone half shows as "�".
 */
export function textStart(text: string, units: number): string {
  const last = text.charCodeAt(units - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? units - 1 : units);
}
