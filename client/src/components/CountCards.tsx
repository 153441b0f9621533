import { Group, Paper, SimpleGrid, Skeleton, Text, ThemeIcon, type SimpleGridProps } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import { formatTotal } from '../lib/text';

export interface CountCard {
  key: string;
  label: string;
  value: number | undefined;
  /** The count stopped at its cap: shown as e.g. "10,000+". */
  capped?: boolean;
  color: string;
  icon: Icon;
}

/** A row of count cards (dashboards): label, big number, coloured icon; skeletons while loading, a dash when the counts could not be read. */
export function CountCards({ cards, loading, cols }: { cards: CountCard[]; loading: boolean; cols?: SimpleGridProps['cols'] }) {
  return (
    <SimpleGrid cols={cols ?? { base: 2, md: cards.length }} spacing="md">
      {cards.map(({ key, label, value, capped, color, icon: CardIcon }) => (
        <Paper key={key} withBorder p="md" radius="md" role="group" aria-label={label} data-testid={`count-${key}`}>
          <Group justify="space-between" align="flex-start" wrap="nowrap">
            <div>
              <Text size="xs" c="dimmed" tt="uppercase" fw={700}>
                {label}
              </Text>
              {loading ? (
                <Skeleton h={32} w={48} mt={6} />
              ) : (
                <Text fz={28} fw={700} lh={1.2} mt={4}>
                  {value === undefined ? '—' : formatTotal(value, capped)}
                </Text>
              )}
            </div>
            <ThemeIcon color={color} variant="light" size={40} radius="md">
              <CardIcon size={22} />
            </ThemeIcon>
          </Group>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
