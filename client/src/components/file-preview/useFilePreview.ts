import { useEffect, useState } from 'react';
import type { FileResponse as FileInfo, FileVariant } from '@contracts/rest/files';
import { useFileAccess } from './file-access';
import { type FileKind, type FileSource, fileKindOf } from './file-kind';

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
    void lookup.get(code).then((found) => {
      if (!current) return;
      setInfo(found);
      if (!found) setStatus('missing');
    });
    return () => {
      current = false;
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
