import { ActionIcon, Button, Tooltip } from '@mantine/core';
import { forwardRef, type ReactElement } from 'react';

interface ActionProps {
  label: string;
  ariaLabel: string;
  icon: ReactElement;
  color: string;
  variant: 'subtle' | 'light';
  /** A phone card's action carries its label as text; a table row's is an icon with a tip. */
  withText: boolean;
  loading?: boolean;
  onClick?: () => void;
  /** Set by a menu this action opens (Menu.Target): its tip would cover the open menu. */
  'aria-expanded'?: boolean;
}

/** One row action: an icon with a tip in the table, a labelled button on a phone card. */
export const RowAction = forwardRef<HTMLButtonElement, ActionProps>(function RowAction(
  { label, ariaLabel, icon, color, variant, withText, loading, onClick, ...rest },
  ref,
) {
  if (withText) {
    return (
      <Button
        ref={ref}
        size="sm"
        variant={variant}
        color={color}
        leftSection={icon}
        aria-label={ariaLabel}
        loading={loading}
        onClick={onClick}
        {...rest}
      >
        {label}
      </Button>
    );
  }
  return (
    <Tooltip label={label} disabled={rest['aria-expanded'] === true}>
      <ActionIcon ref={ref} size="md" variant={variant} color={color} aria-label={ariaLabel} loading={loading} onClick={onClick} {...rest}>
        {icon}
      </ActionIcon>
    </Tooltip>
  );
});
