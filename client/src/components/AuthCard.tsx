import { Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import type { ReactNode } from 'react';

interface AuthCardProps {
  title: string;
  subtitle?: ReactNode;
  icon: ReactNode;
  /** Wider for forms with more fields or output (signup, API test). */
  width?: number;
  children: ReactNode;
  footer?: ReactNode;
}

/** The frame every sign-in screen and the public survey page share: a centred card with an icon, a title and a short lead. */
export function AuthCard({ title, subtitle, icon, width = 440, children, footer }: AuthCardProps) {
  return (
    <Center py={{ base: 'md', sm: 40 }}>
      <Paper withBorder radius="lg" p={{ base: 'lg', sm: 'xl' }} w="100%" maw={width} shadow="sm">
        <Stack gap="lg">
          <Stack align="center" gap={6} ta="center">
            <ThemeIcon size={52} radius="xl" variant="light">
              {icon}
            </ThemeIcon>
            <Title order={1} size="h2">
              {title}
            </Title>
            {subtitle && (
              <Text c="dimmed" size="sm">
                {subtitle}
              </Text>
            )}
          </Stack>
          {children}
          {footer && (
            <Stack gap={4} align="center" ta="center">
              {footer}
            </Stack>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
