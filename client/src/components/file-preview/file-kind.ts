import type { FileResponse as FileInfo } from '@contracts/rest/files';

/** Spec section 4: png, jpg, jpeg and gif preview as images; everything else is unknown. */
export const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif'] as const;
export type FileKind = 'image' | 'unknown';

export function fileKindOf(name: string | null | undefined): FileKind {
  const extension = (name ?? '').split('.').pop()?.toLowerCase() ?? '';
  return (IMAGE_EXTENSIONS as readonly string[]).includes(extension) && (name ?? '').includes('.') ? 'image' : 'unknown';
}

export const FILE_REQUIRED = 'file or code is required';

/** A stored file (by its description or code) or a local one not uploaded yet. */
export type FileSource = { kind: 'stored'; info: FileInfo } | { kind: 'code'; code: string } | { kind: 'local'; file: File };

/** The preview needs a file or a code (spec section 5); without either it fails. */
export function resolveFileSource({ file, code }: { file?: FileInfo | File | null; code?: string | null }): FileSource {
  if (file && typeof File !== 'undefined' && file instanceof File) return { kind: 'local', file };
  if (file) return { kind: 'stored', info: file as FileInfo };
  if (code) return { kind: 'code', code };
  throw new Error(FILE_REQUIRED);
}

/** A stored image whose renditions the server has not made yet: shown as a file until they are (docs/security.md). */
export const renditionPending = (file: Pick<FileInfo, 'kind' | 'hasThumbnail'>): boolean => file.kind === 'image' && !file.hasThumbnail;

/** The 300 ms file lookup batching of spec section 9: codes asked within the window go in one POST /api/File/List. */
export function createFileLookup(list: (codes: string[]) => Promise<FileInfo[]>, delayMs = 300) {
  const known = new Map<string, Promise<FileInfo | null>>();
  let pending = new Map<string, (info: FileInfo | null) => void>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  const flush = () => {
    timer = null;
    const batch = pending;
    pending = new Map();
    list([...batch.keys()]).then(
      (files) => {
        const byCode = new Map(files.map((f) => [f.code, f]));
        for (const [code, resolve] of batch) {
          const file = byCode.get(code) ?? null;
          // An image whose renditions are still being made is asked for again next time.
          if (file && renditionPending(file)) known.delete(code);
          resolve(file);
        }
      },
      () => {
        // A failed batch is forgotten, so the next look-up asks again.
        for (const [code, resolve] of batch) {
          known.delete(code);
          resolve(null);
        }
      },
    );
  };

  return {
    get(code: string): Promise<FileInfo | null> {
      const hit = known.get(code);
      if (hit) return hit;
      const promise = new Promise<FileInfo | null>((resolve) => pending.set(code, resolve));
      known.set(code, promise);
      if (timer) clearTimeout(timer);
      timer = setTimeout(flush, delayMs);
      return promise;
    },
  };
}

export type FileLookup = ReturnType<typeof createFileLookup>;
