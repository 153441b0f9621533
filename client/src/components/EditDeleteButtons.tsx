import { Button, Group } from '@mantine/core';
import { IconEdit, IconTrash } from '@tabler/icons-react';
import { Link } from 'wouter';

/** The Edit link and Delete button of a detail page; each is left out without its `editHref` or `onDelete` (Delete asks first, in the caller). */
export function EditDeleteButtons({ editHref, onDelete, deleting }: { editHref?: string; onDelete?: () => void; deleting: boolean }) {
  return (
    <Group gap="sm">
      {editHref && (
        <Button component={Link} href={editHref} variant="default" leftSection={<IconEdit size={16} />}>
          Edit
        </Button>
      )}
      {onDelete && (
        <Button color="red" variant="light" leftSection={<IconTrash size={16} />} onClick={onDelete} loading={deleting}>
          Delete
        </Button>
      )}
    </Group>
  );
}
