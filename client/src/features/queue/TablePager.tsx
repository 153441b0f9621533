import { LIMITS } from '@helpdesk/protocol';
import { Group, Pagination, Select, Text } from '@mantine/core';
import { DeepPagesNote } from '../../components/DeepPagesNote';
import { PAGINATION_LABELS, pagesOffered } from '../../lib/paging';
import { formatTotal } from '../../lib/text';

const PAGE_SIZE_OPTIONS = LIMITS.ticketPage.agentOptions.map(String);

interface TablePagerProps {
  page: number;
  limit: number;
  total: number;
  totalCapped?: boolean;
  onPage: (page: number) => void;
  onLimit: (limit: number) => void;
}

/**
 * 5, 10, 25 or 50 rows per page, and where this page sits in the whole (docs/product.md#agent-dashboard);
 * pages only as deep as the server serves, and says how to narrow the list past that.
 */
export function TablePager({ page, limit, total, totalCapped, onPage, onLimit }: TablePagerProps) {
  const pages = pagesOffered(total, limit);
  const from = total === 0 ? 0 : (page - 1) * limit + 1;
  const to = Math.min(total, page * limit);
  return (
    <>
      <Group justify="space-between" gap="sm" px="md" py="sm">
        <Group gap="md" style={{ rowGap: 4 }}>
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" c="dimmed" component="label" htmlFor="agent-rows-per-page" style={{ whiteSpace: 'nowrap' }}>
              Rows per page
            </Text>
            <Select
              id="agent-rows-per-page"
              data={PAGE_SIZE_OPTIONS}
              value={String(limit)}
              onChange={(value) => value && onLimit(Number(value))}
              allowDeselect={false}
              w={76}
              size="xs"
            />
          </Group>
          <Text size="sm" c="dimmed" data-testid="showing-range" style={{ whiteSpace: 'nowrap' }}>
            {total === 0 ? 'No tickets to show' : `Showing ${from}–${to} of ${formatTotal(total, totalCapped)}`}
          </Text>
        </Group>
        <Pagination
          total={pages}
          value={page}
          onChange={onPage}
          size="sm"
          withEdges={pages > 5}
          aria-label="Pages"
          {...PAGINATION_LABELS}
        />
      </Group>
      <DeepPagesNote page={page} limit={limit} total={total} totalCapped={totalCapped} />
    </>
  );
}
