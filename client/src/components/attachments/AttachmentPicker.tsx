import { formatBytes } from '@helpdesk/protocol';
import { ActionIcon, Button, FileButton, Group, Paper, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { IconCheck, IconFile, IconPaperclip, IconX } from '@tabler/icons-react';
import { useState, type ClipboardEvent, type CSSProperties, type DragEvent } from 'react';
import type { AttachmentDraft, DraftFile } from './useAttachmentDraft';
import { ATTACHMENT_TEXT } from './texts';

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');

const DRAGGING_STYLE: CSSProperties = {
  outline: '2px dashed var(--mantine-color-blue-6)',
  outlineOffset: 4,
  borderRadius: 'var(--mantine-radius-md)',
};

/**
 * Handlers for a composer or form, so files dropped on it or pasted into it are attached
 * (docs/product.md#attachments); spread `dropProps` on its outer element. While files are dragged
 * over it, it is outlined and `dragging` is true (render <DropHint> with it).
 */
export function useFileDrop(draft: AttachmentDraft) {
  const [dragging, setDragging] = useState(false);
  const dropProps = {
    'data-dropzone': true,
    onDragOver: (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    },
    onDragLeave: (event: DragEvent) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop: (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      setDragging(false);
      draft.add(Array.from(event.dataTransfer.files));
    },
    onPaste: (event: ClipboardEvent) => {
      const files = Array.from(event.clipboardData.files);
      if (files.length === 0) return; // text pastes as text
      event.preventDefault();
      draft.add(files);
    },
    style: dragging ? DRAGGING_STYLE : undefined,
  };
  return { dropProps, dragging };
}

/** Where to let go of dragged files; screen readers have the button instead. */
export function DropHint({ visible }: { visible: boolean }) {
  if (!visible) return null;
  return (
    <Text size="sm" fw={600} c="blue.8" ta="center" aria-hidden>
      {ATTACHMENT_TEXT.dropHere}
    </Text>
  );
}

/** The "Attach files" button: the keyboard's way to the same files that drag and paste bring. */
/** `compact`: the paperclip alone (a phone's reply box), named for screen readers and on hover. */
export function AttachButton({ draft, disabled, compact = false }: { draft: AttachmentDraft; disabled?: boolean; compact?: boolean }) {
  return (
    <FileButton onChange={(files) => draft.add(files)} multiple disabled={disabled} inputProps={{ 'aria-label': ATTACHMENT_TEXT.attach }}>
      {(props) =>
        compact ? (
          <Tooltip label={ATTACHMENT_TEXT.attach}>
            <ActionIcon {...props} variant="default" size="lg" aria-label={ATTACHMENT_TEXT.attach} aria-describedby={undefined}>
              <IconPaperclip size={18} />
            </ActionIcon>
          </Tooltip>
        ) : (
          <Button {...props} variant="default" leftSection={<IconPaperclip size={16} />} aria-describedby={undefined}>
            {ATTACHMENT_TEXT.attach}
          </Button>
        )
      }
    </FileButton>
  );
}

function DraftRow({ file, onRemove }: { file: DraftFile; onRemove: () => void }) {
  const percent = Math.round(file.progress * 100);
  return (
    <Paper
      component="li"
      withBorder
      radius="sm"
      px="sm"
      py={6}
      data-testid="draft-file"
      // A refused file stands out from the ones that will be sent.
      style={{ listStyle: 'none', borderColor: file.status === 'failed' ? 'var(--mantine-color-red-5)' : undefined }}
    >
      <Group gap="sm" wrap="nowrap">
        <IconFile size={18} aria-hidden style={{ flexShrink: 0 }} />
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap" justify="space-between">
            <Text size="sm" truncate="end" title={file.name}>
              {file.name}
            </Text>
            <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
              {formatBytes(file.size)}
            </Text>
          </Group>
          {file.status === 'uploading' && (
            <Progress value={percent} size="sm" aria-label={`${file.name}: ${ATTACHMENT_TEXT.uploading(percent)}`} />
          )}
          {file.status === 'uploading' && (
            <Text size="xs" c="dimmed">
              {ATTACHMENT_TEXT.uploading(percent)}
            </Text>
          )}
          {file.status === 'done' && (
            <Group gap={4}>
              <IconCheck size={14} color="var(--mantine-color-green-8)" aria-hidden />
              <Text size="xs">{ATTACHMENT_TEXT.uploaded}</Text>
            </Group>
          )}
          {file.status === 'failed' && (
            <Text size="xs" c="red.8" role="alert">
              {file.error}
            </Text>
          )}
        </Stack>
        <ActionIcon
          variant="subtle"
          color="gray"
          onClick={onRemove}
          aria-label={ATTACHMENT_TEXT.remove(file.name)}
          style={{ flexShrink: 0 }}
        >
          <IconX size={16} />
        </ActionIcon>
      </Group>
    </Paper>
  );
}

/** The files picked so far, each with its size, progress or error, and a remove button. */
export function DraftFiles({ draft }: { draft: AttachmentDraft }) {
  if (draft.files.length === 0 && !draft.refusal) return null;
  return (
    <Stack gap={6}>
      {draft.refusal && (
        <Text size="sm" c="red.8" role="alert">
          {draft.refusal}
        </Text>
      )}
      {draft.files.length > 0 && (
        <Stack component="ul" gap={6} m={0} p={0} aria-label={ATTACHMENT_TEXT.pending}>
          {draft.files.map((file) => (
            <DraftRow key={file.key} file={file} onRemove={() => draft.remove(file.key)} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
