import { useCallback, useEffect, useReducer, useRef } from 'react';
import { ApiError } from '@/api/api-error';
import { fileApi } from '@/api/file.api';
import { uploadFile } from '@/api/file-upload';
import { refreshToken } from '@/features/session/session.actions';
import { sessionStore } from '@/features/session/session.store';
import { tk } from '@/i18n/i18n';
import { type Attachment, attachmentsReducer, newAttachment, roomFor } from './attachments';

export interface AttachmentsApi {
  list: Attachment[];
  /** Attaches and starts uploading; returns how many files were left out (over the limit). */
  add: (files: readonly File[]) => number;
  remove: (id: string) => void;
  retry: (id: string) => void;
  clear: () => void;
}

/** The upload refusals that say what to do (server/src/modules/files); others are a plain "upload failed". */
const FILE_RULES: readonly string[] = [tk('VALIDATION.FILE.IMAGE_TOO_LARGE'), tk('VALIDATION.FILE.QUOTA_EXCEEDED')];

const errorKey = (err: unknown): string => {
  if (!(err instanceof ApiError)) return tk('CHAT.ATTACH_FAILED');
  if (err.status === 413) return tk('CHAT.ATTACH_TOO_BIG');
  const rule = err.body?.data?.brokenRules?.[0];
  return rule && FILE_RULES.includes(rule) ? rule : tk('CHAT.ATTACH_FAILED');
};

/** The composer's attached files: each uploads at once (POST /api/File, shared in the group) with progress. */
export function useAttachments(groupCode: string): AttachmentsApi {
  const [list, dispatch] = useReducer(attachmentsReducer, []);
  const uploads = useRef(new Map<string, AbortController>());
  const current = useRef(list);
  current.current = list;

  const start = useCallback(
    (a: Attachment) => {
      const controller = new AbortController();
      uploads.current.set(a.id, controller);
      uploadFile(a.file, {
        groupCode,
        token: sessionStore.token,
        // An expired token: refreshed once (as every other call's session is), then the upload is sent again.
        refreshToken: async () => ((await refreshToken()) ? sessionStore.token : null),
        signal: controller.signal,
        onProgress: (loaded, total) => dispatch({ type: 'progress', id: a.id, loaded, total }),
      }).then(
        (info) => {
          uploads.current.delete(a.id);
          dispatch({ type: 'done', id: a.id, info });
        },
        (err: unknown) => {
          uploads.current.delete(a.id);
          if (!controller.signal.aborted) dispatch({ type: 'failed', id: a.id, error: errorKey(err) });
        },
      );
    },
    [groupCode],
  );

  const abortAll = () => {
    for (const controller of uploads.current.values()) controller.abort();
    uploads.current.clear();
  };

  // Another chat: its attachments stay behind (an unfinished upload is abandoned).
  useEffect(() => {
    dispatch({ type: 'clear' });
    return abortAll;
  }, [groupCode]);

  const add = useCallback(
    (files: readonly File[]) => {
      const room = roomFor(current.current.length, files.length);
      const items = files.slice(0, room).map(newAttachment);
      if (items.length) {
        // Two adds before a re-render still count each other.
        current.current = [...current.current, ...items];
        dispatch({ type: 'add', items });
        items.forEach(start);
      }
      return files.length - items.length;
    },
    [start],
  );
  // A file uploaded but taken out before sending is deleted on the server too (best effort): nothing refers
  // to it, and it would count against the user's storage quota.
  const remove = useCallback((id: string) => {
    uploads.current.get(id)?.abort();
    uploads.current.delete(id);
    const uploaded = current.current.find((a) => a.id === id)?.info;
    if (uploaded) void fileApi.remove(uploaded.code).catch(() => undefined);
    dispatch({ type: 'remove', id });
  }, []);
  const retry = useCallback(
    (id: string) => {
      const a = current.current.find((x) => x.id === id);
      if (!a || a.status !== 'failed') return;
      dispatch({ type: 'retry', id });
      start(a);
    },
    [start],
  );
  const clear = useCallback(() => dispatch({ type: 'clear' }), []);
  return { list, add, remove, retry, clear };
}
