import { Kbd, Modal, Table } from '@mantine/core';

export interface Shortcut {
  keys: string[];
  does: string;
}

export const QUEUE_SHORTCUTS: Shortcut[] = [
  { keys: ['j'], does: 'Next ticket' },
  { keys: ['k'], does: 'Previous ticket' },
  { keys: ['Enter'], does: 'Open the ticket' },
  { keys: ['r'], does: 'Reply (Quick Reply on the dashboard, the reply box on a ticket)' },
  { keys: ['?'], does: 'Show these shortcuts' },
];

/** The `?` overlay: which keys do what on this page. */
export function ShortcutHelp({
  opened,
  onClose,
  shortcuts = QUEUE_SHORTCUTS,
}: {
  opened: boolean;
  onClose: () => void;
  shortcuts?: Shortcut[];
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Keyboard shortcuts" centered>
      <Table>
        <Table.Tbody>
          {shortcuts.map((shortcut) => (
            <Table.Tr key={shortcut.does}>
              <Table.Td w={90}>
                {shortcut.keys.map((key) => (
                  <Kbd key={key}>{key}</Kbd>
                ))}
              </Table.Td>
              <Table.Td>{shortcut.does}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
