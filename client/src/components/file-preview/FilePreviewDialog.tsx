import { Button, Center, Group, Image, Loader, Modal, Stack, Text } from '@mantine/core';
import { IconDownload, IconFile } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatFileSize } from '@/components/format/numbers';
import { useFileAccess } from './file-access';
import type { FileSource } from './file-kind';
import { useFilePreview } from './useFilePreview';

/** Saves bytes under a name through a temporary link (the download needs the bearer header too). */
function saveAs(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The image preview (or an icon for unknown kinds) with the file's name, size and a download button. */
export function FilePreviewDialog({ source, opened, onClose }: { source: FileSource; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { bytes } = useFileAccess();
  const preview = useFilePreview(source, 'Preview');
  const handleDownload = async () => {
    if (source.kind === 'local') return saveAs(source.file, source.file.name);
    if (preview.info) saveAs(await bytes(preview.info, 'Download'), preview.info.name);
  };
  return (
    <Modal opened={opened} onClose={onClose} title={preview.name} size="lg" data-testid="file-preview-dialog">
      <Stack>
        <Center mih={200}>
          {preview.imageUrl ? (
            <Image src={preview.imageUrl} alt={preview.name} mah="60vh" fit="contain" />
          ) : preview.status === 'loading' ? (
            <Loader />
          ) : (
            <IconFile size={96} stroke={1.2} />
          )}
        </Center>
        <Group justify="space-between">
          <Text size="sm" c="dimmed" data-testid="file-preview-size">
            {formatFileSize(preview.size)}
          </Text>
          <Button
            leftSection={<IconDownload size={16} />}
            variant="light"
            onClick={() => void handleDownload()}
            disabled={source.kind !== 'local' && !preview.info}
          >
            {t('FILE.DOWNLOAD')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
