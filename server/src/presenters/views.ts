import { BUILT_IN_VIEWS, type View } from '@helpdesk/protocol';
import type { ViewRow } from '../db/queries/views.js';

export const presentView = (row: ViewRow): View => ({
  id: row.id,
  name: row.name,
  filters: row.filters,
  ...(row.sort !== null && { sort: row.sort }),
  shared: row.shared,
  owner: { id: row.ownerId, name: row.ownerName },
});

/** The built-in views as every list shows them first: nobody's, with their own copy of the filters. */
export const presentBuiltInViews = (): View[] => BUILT_IN_VIEWS.map((view) => ({ ...view, filters: { ...view.filters }, owner: null }));
