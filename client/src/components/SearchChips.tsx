import { parseSearch, searchWithout, type SearchTerm } from '@helpdesk/protocol';
import { CloseButton, Group, Pill, Text } from '@mantine/core';

/** Why a `key:value` term is searched as text, in the chip's words. */
const REASONS: Record<NonNullable<Extract<SearchTerm, { kind: 'text' }>['reason']>, string> = {
  'unknown-key': 'unknown filter, searched as text',
  'unknown-value': 'unknown value, searched as text',
  repeated: 'repeated filter, searched as text',
};

const KEY_LABELS: Record<string, string> = {
  is: 'is',
  status: 'Status',
  priority: 'Priority',
  assignee: 'Assignee',
  requester: 'Requester',
  tag: 'Tag',
  category: 'Category',
};

export const chipLabel = (term: SearchTerm): string =>
  term.kind === 'filter'
    ? `${KEY_LABELS[term.key] ?? term.key}: ${term.value}`
    : term.reason
      ? `“${term.value}” (${REASONS[term.reason]})`
      : `Text: ${term.value}`;

/**
 * The queue's search box read with the protocol's parser (docs/api.md#search-syntax): each filter
 * and each word searched as text is a chip, and removing a chip takes its term out of the box.
 */
export function SearchChips({ text, onChange }: { text: string; onChange: (text: string) => void }) {
  const parsed = parseSearch(text);
  if (parsed.terms.length === 0) return null;
  return (
    <Group gap={6} mt="sm" aria-label="Search terms" role="list" data-testid="search-chips">
      {parsed.terms.map((term, index) => (
        <Pill
          key={`${index}-${term.raw}`}
          size="md"
          role="listitem"
          data-kind={term.kind}
          bg={term.kind === 'filter' ? 'var(--mantine-color-blue-light)' : undefined}
        >
          <Group gap={4} wrap="nowrap">
            <Text span size="sm">
              {chipLabel(term)}
            </Text>
            <CloseButton size="xs" aria-label={`Remove ${chipLabel(term)}`} onClick={() => onChange(searchWithout(parsed, index))} />
          </Group>
        </Pill>
      ))}
    </Group>
  );
}
