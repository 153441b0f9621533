/** A GET's query as the HTTP client writes it (empty values left out), shared with the entry script's early reads. */
export type Query = Record<string, string | number | boolean | undefined | null>;

export function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
