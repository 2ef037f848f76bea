import { useEffect, useState } from 'react';
import type { FileResponse as FileInfo, FileVariant } from '@contracts/rest/files';
import { useFileAccess } from './file-access';
import { type FileKind, type FileSource, fileKindOf, renditionPending } from './file-kind';

/** Look-ups of an image whose renditions are pending, 1 s, 2 s, 4 s… apart (about a minute in all). */
const RENDITION_RETRIES = 6;

export interface FilePreviewState {
  name: string;
  size: number | null;
  kind: FileKind;
  info: FileInfo | null;
  /** An object URL of the image rendition; revoked when the component goes away. */
  imageUrl: string | null;
  status: 'loading' | 'ready' | 'missing';
}

/** Describes the file and loads its image rendition with the bearer header, as an object URL. */
export function useFilePreview(source: FileSource | null, variant: Exclude<FileVariant, 'Download'>): FilePreviewState {
  const { lookup, bytes } = useFileAccess();
  const [info, setInfo] = useState<FileInfo | null>(source?.kind === 'stored' ? source.info : null);
  const [status, setStatus] = useState<FilePreviewState['status']>('loading');
  const [imageUrl, setImageUrl] = useState<string | null>(null);
  const code = source?.kind === 'code' ? source.code : null;

  useEffect(() => {
    if (source?.kind === 'stored') setInfo(source.info);
    if (!code) return;
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = (attempt: number) =>
      void lookup.get(code).then((found) => {
        if (!current) return;
        setInfo(found);
        if (!found) setStatus('missing');
        // Its renditions are being made: ask again a few times, further apart each time.
        else if (renditionPending(found) && attempt < RENDITION_RETRIES) timer = setTimeout(() => ask(attempt + 1), 1000 * 2 ** attempt);
      });
    ask(0);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [code, source, lookup]);

  const local = source?.kind === 'local' ? source.file : null;
  const name = local?.name ?? info?.name ?? '';
  const kind = fileKindOf(name);
  const wantsImage = kind === 'image' && (local !== null || info?.hasThumbnail !== false);

  useEffect(() => {
    if (!local && !info) return;
    if (!wantsImage) {
      setStatus('ready');
      return;
    }
    let url: string | null = null;
    let current = true;
    const load = local ? Promise.resolve<Blob>(local) : bytes(info as FileInfo, variant);
    load.then(
      (blob) => {
        if (!current) return;
        url = URL.createObjectURL(blob);
        setImageUrl(url);
        setStatus('ready');
      },
      () => current && setStatus('ready'),
    );
    return () => {
      current = false;
      if (url) URL.revokeObjectURL(url);
      setImageUrl(null);
    };
  }, [local, info, wantsImage, variant, bytes]);

  return { name, size: local?.size ?? info?.size ?? null, kind, info, imageUrl, status };
}
