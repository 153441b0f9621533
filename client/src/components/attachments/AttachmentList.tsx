import { formatBytes, isPreviewableImage, type Attachment } from '@helpdesk/protocol';
import { Group, Image, Paper, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconDownload, IconFile } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { fetchAttachment, saveAttachment } from '../../api/attachments';
import { notifyError } from '../../lib/notify';
import { ATTACHMENT_TEXT } from './texts';

/** Larger images are listed without a preview: a thread should not pull megabytes to draw thumbnails. */
const PREVIEW_MAX_BYTES = 5 * 1024 * 1024;

/** An image's bytes as a page-local URL, read with the session's token; released when it leaves. */
function usePreview(file: Attachment): string | null {
  const wanted = isPreviewableImage(file.contentType) && file.size <= PREVIEW_MAX_BYTES;
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!wanted) return;
    const controller = new AbortController();
    let made: string | null = null;
    fetchAttachment(file.id, controller.signal).then(
      (blob) => {
        made = URL.createObjectURL(blob);
        setUrl(made);
      },
      () => undefined, // no preview: the file is still listed and can be downloaded
    );
    return () => {
      controller.abort();
      if (made) URL.revokeObjectURL(made);
    };
  }, [file.id, wanted]);
  return url;
}

function AttachmentItem({ file }: { file: Attachment }) {
  const preview = usePreview(file);
  const size = formatBytes(file.size);
  const save = () => {
    saveAttachment(file).catch(() => notifyError(ATTACHMENT_TEXT.downloadFailed));
  };
  return (
    <Paper component="li" withBorder radius="sm" style={{ listStyle: 'none', maxWidth: '100%' }} data-testid="attachment">
      {/* The name says what is visible, with "Download" before it for screen readers (label in name). */}
      <UnstyledButton onClick={save} p={6} display="block" w="100%">
        <VisuallyHidden>{ATTACHMENT_TEXT.download} </VisuallyHidden>
        <Stack gap={4}>
          {preview && <Image src={preview} alt="" h={120} w="auto" maw="100%" fit="contain" radius="xs" />}
          <Group gap={6} wrap="nowrap">
            {preview ? <IconDownload size={16} aria-hidden /> : <IconFile size={16} aria-hidden />}
            <Text size="sm" truncate="end" style={{ minWidth: 0 }} title={file.filename}>
              {file.filename}
            </Text>
            <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
              {size}
            </Text>
          </Group>
        </Stack>
      </UnstyledButton>
    </Paper>
  );
}

/** The files of a comment or ticket: name, size, a preview for images; a click saves the file. */
export function AttachmentList({ files }: { files: Attachment[] }) {
  if (files.length === 0) return null;
  return (
    <Group component="ul" gap="xs" m={0} p={0} mt={4} align="flex-start" aria-label={ATTACHMENT_TEXT.attached}>
      {files.map((file) => (
        <AttachmentItem key={file.id} file={file} />
      ))}
    </Group>
  );
}
