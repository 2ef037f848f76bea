import { Alert, Box, Card, Center, Image, Loader, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconFile } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileResponse as FileInfo } from '@contracts/rest/files';
import { formatFileSize } from '@/components/format/numbers';
import { shortenLink } from '@/components/format/text';
import { resolveFileSource } from './file-kind';
import { FilePreviewDialog } from './FilePreviewDialog';
import { useFilePreview } from './useFilePreview';

export interface FileTileProps {
  /** A stored file's description, or a local File not uploaded yet. Default: none (then `code` is needed). */
  file?: FileInfo | File | null;
  /** A stored file's code, described through the batched POST /api/File/List. Default: none. */
  code?: string | null;
  /** 'tile': a small row (composer strip, message); 'icon': a big square. Default: 'tile'. */
  variant?: 'tile' | 'icon';
  /** Opens the preview dialog on click. Default: true. */
  withDialog?: boolean;
}

const SIZES = { tile: 48, icon: 160 } as const;

/** A file's thumbnail (images) or icon (unknown kinds) with its name and size; a click opens the preview. */
export function FileTile(props: FileTileProps) {
  const { t } = useTranslation();
  let source;
  try {
    source = resolveFileSource(props);
  } catch {
    return (
      <Alert color="red" variant="light" data-testid="file-tile-error">
        {t('FILE.REQUIRED')}
      </Alert>
    );
  }
  return <FileTileBody {...props} source={source} />;
}

function FileTileBody({ source, variant = 'tile', withDialog = true }: FileTileProps & { source: ReturnType<typeof resolveFileSource> }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const preview = useFilePreview(source, 'Thumbnail');
  const box = SIZES[variant];
  const picture = preview.imageUrl ? (
    <Image src={preview.imageUrl} alt={preview.name} w={box} h={box} fit="cover" radius="sm" />
  ) : (
    <Center w={box} h={box} bg="var(--mantine-color-default-hover)" style={{ borderRadius: 'var(--mantine-radius-sm)' }}>
      {preview.status === 'loading' ? <Loader size="xs" /> : <IconFile size={box / 2} stroke={1.4} />}
    </Center>
  );
  const label = preview.status === 'missing' ? t('FILE.MISSING') : shortenLink(preview.name);
  const content =
    variant === 'tile' ? (
      <Card withBorder padding={4} radius="sm" style={{ display: 'flex', flexDirection: 'row', gap: 8, alignItems: 'center', maxWidth: 260 }}>
        {picture}
        <Box miw={0}>
          <Text size="sm" truncate>
            {label}
          </Text>
          <Text size="xs" c="dimmed">
            {formatFileSize(preview.size)}
          </Text>
        </Box>
      </Card>
    ) : (
      <Stack gap={4} w={box} align="center">
        {picture}
        <Text size="sm" ta="center" w={box} truncate>
          {label}
        </Text>
        <Text size="xs" c="dimmed">
          {formatFileSize(preview.size)}
        </Text>
      </Stack>
    );
  return (
    <>
      <Tooltip label={preview.name} disabled={!preview.name}>
        <UnstyledButton
          onClick={() => withDialog && preview.status !== 'missing' && setOpened(true)}
          data-testid="file-tile"
          data-kind={preview.kind}
          data-variant={variant}
          data-status={preview.status}
          aria-label={preview.name || t('FILE.MISSING')}
        >
          {content}
        </UnstyledButton>
      </Tooltip>
      {withDialog && opened ? <FilePreviewDialog source={source} opened onClose={() => setOpened(false)} /> : null}
    </>
  );
}
