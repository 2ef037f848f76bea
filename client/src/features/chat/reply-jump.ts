import { loadOlder } from './message-pages.actions';
import { chatStore, lowestSeq } from './chat.store';
import { clearHighlight, highlightMessage } from './reply-edit.store';

/** How long the original stays highlighted after a jump. */
export const HIGHLIGHT_MS = 2_000;
/** At most this many older pages are loaded looking for an original (50 messages each). */
const MAX_PAGES = 200;

/**
 * From a reply's quote to its original: loads older pages until the original's seq is held, then
 * highlights it (the list scrolls to the highlighted row). Resolves false when it can't be found.
 */
export async function jumpToOriginal(groupCode: string, seq: number): Promise<boolean> {
  for (let page = 0; page <= MAX_PAGES; page++) {
    const thread = chatStore.threads[groupCode];
    if (!thread) return false;
    if (thread.bySeq[seq]) {
      const id = highlightMessage(groupCode, seq);
      setTimeout(() => clearHighlight(id), HIGHLIGHT_MS);
      return true;
    }
    const lowest = lowestSeq(thread);
    if (!thread.mayLoadOlder || lowest === null || lowest < seq) return false;
    await loadOlder(groupCode);
  }
  return false;
}
