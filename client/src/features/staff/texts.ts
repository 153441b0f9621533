/** Texts of the support agents screen (docs/product.md#support-management). */
export const STAFF_TEXT = {
  created: 'Support agent created successfully',
  updated: 'Support agent updated successfully',
  deleted: 'Support agent deleted successfully',
  loadFailed: 'Failed to fetch support agents',
  deleteFailed: 'Failed to delete support agent',
  saveFailed: 'An error occurred',
  empty: 'No support agents found',
  confirmDelete: 'Are you sure you want to delete this support agent?',
  keepPassword: 'Leave blank to keep current password',
} as const;
