import { SegmentedControl } from '@mantine/core';

export type ReplyMode = 'reply' | 'note';

/** Reply (the customer reads it) or Internal note (staff only), for every staff reply box. */
export function ReplyModeSwitch({ value, onChange }: { value: ReplyMode; onChange: (mode: ReplyMode) => void }) {
  return (
    <SegmentedControl
      aria-label="Reply type"
      value={value}
      onChange={(mode) => onChange(mode as ReplyMode)}
      data={[
        { value: 'reply', label: 'Reply' },
        { value: 'note', label: 'Internal note' },
      ]}
    />
  );
}
