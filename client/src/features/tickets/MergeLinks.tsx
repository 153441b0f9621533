import type { HistoryEntry } from '@helpdesk/protocol';
import { Anchor } from '@mantine/core';
import { Link } from 'wouter';

/**
 * The merge texts the server writes (`Merged into #<id>` on the closed ticket, `Merged from #<id>: …`
 * on the other) with the ticket number as a link, so the requester and staff can follow it. Only these
 * two openings are read: any other `#123` in a message may be an order number, not a ticket.
 */
const MERGE_TEXT = /^(Merged (?:into|from) )#(\d+)/;

export function withMergeLink(text: string) {
  const match = MERGE_TEXT.exec(text);
  if (!match) return text;
  const [whole, opening = '', id = ''] = match;
  return (
    <>
      {opening}
      <Anchor component={Link} href={`/ticket/${id}`} inherit>
        #{id}
      </Anchor>
      {text.slice(whole.length)}
    </>
  );
}

/** A history entry's text, the merge entry's ticket number a link. */
export const historyTextWithLinks = (entry: HistoryEntry, text: string) => (entry.type === 'merged' ? withMergeLink(text) : text);
