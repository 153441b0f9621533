// Apart from the canned responses' schemas (api/cannedResponses.ts imports zod): the client fills
// placeholders in code every signed-in page loads, and zod should load only with the forms.

/** What a canned response's placeholders are filled with. */
export interface PlaceholderValues {
  customerName: string;
  ticketId: number;
  ticketTitle: string;
  agentName: string;
}

export const PLACEHOLDERS = ['{{customer.name}}', '{{ticket.id}}', '{{ticket.title}}', '{{agent.name}}'] as const;

/** Replaces every placeholder (spaces inside the braces allowed); unknown ones stay as written. */
export function fillPlaceholders(text: string, values: PlaceholderValues): string {
  const table: Record<string, string> = {
    'customer.name': values.customerName,
    'ticket.id': String(values.ticketId),
    'ticket.title': values.ticketTitle,
    'agent.name': values.agentName,
  };
  return text.replace(/\{\{\s*([a-z.]+)\s*\}\}/g, (whole, key: string) => table[key] ?? whole);
}
