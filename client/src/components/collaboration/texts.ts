/** Screen texts shared by the owner's comment form and the staff composer (docs/product.md#screens), word for word. */
export const COMMENT_TEXT = {
  commentFailed: 'Failed to add comment',
} as const;
