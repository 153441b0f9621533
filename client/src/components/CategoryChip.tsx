import { CATEGORIES, type Category } from '@helpdesk/protocol';
import { Badge, type BadgeProps } from '@mantine/core';
import { IconCreditCard, IconDots, IconInfoCircle, IconTool, IconUserCircle, type Icon } from '@tabler/icons-react';
import { labelledOptions, labelOf } from '../lib/text';

const CATEGORY_LOOK: Record<Category, { icon: Icon; color: string }> = {
  general: { icon: IconInfoCircle, color: 'blue' },
  technical: { icon: IconTool, color: 'violet' },
  billing: { icon: IconCreditCard, color: 'teal' },
  account: { icon: IconUserCircle, color: 'orange' },
  other: { icon: IconDots, color: 'gray' },
};

/** The categories as select options, labels capitalised. */
export const CATEGORY_OPTIONS = labelledOptions(CATEGORIES);

/** A category chip carries an icon of its own, on articles (docs/product.md#article-page) and tickets alike. */
export function CategoryChip({ category, ...props }: { category: Category } & BadgeProps) {
  const { icon: CategoryIcon, color } = CATEGORY_LOOK[category];
  return (
    <Badge color={color} variant="light" leftSection={<CategoryIcon size={14} aria-hidden />} data-category={category} {...props}>
      {labelOf(category)}
    </Badge>
  );
}
