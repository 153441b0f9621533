import { Badge, Group, type MantineSize } from '@mantine/core';
import { IconHash } from '@tabler/icons-react';

/** An article's keywords as chips; with `limit`, the rest fold into one '+N more' chip (docs/product.md#knowledge-base). */
export function KeywordChips({ keywords, limit, size = 'sm' }: { keywords: string[]; limit?: number; size?: MantineSize }) {
  if (keywords.length === 0) return null;
  const shown = limit === undefined ? keywords : keywords.slice(0, limit);
  const hidden = keywords.length - shown.length;
  return (
    <Group gap={6} aria-label="Keywords">
      {shown.map((keyword) => (
        <Badge key={keyword} variant="default" radius="sm" size={size} tt="none" fw={500} leftSection={<IconHash size={11} aria-hidden />}>
          {keyword}
        </Badge>
      ))}
      {hidden > 0 && (
        <Badge variant="outline" color="gray" radius="sm" size={size} tt="none" fw={500} title={keywords.slice(shown.length).join(', ')}>
          +{hidden} more
        </Badge>
      )}
    </Group>
  );
}
