import { proxy } from 'valtio';
import { readStorage, writeStorage } from '@/features/preferences/preferences';
import type { MenuMode } from '@/features/shell/menu-mode';

/**
 * The chat list's states (spec section 2): 'open' beside the chat, 'closed', or 'visible' as an overlay
 * over the chat on narrow screens (the shell's 'over' mode, width 769 or less).
 */
export type ChatSidebarState = 'open' | 'closed' | 'visible';

export const CHAT_SIDEBAR_STORAGE_KEY = 'chat.sidebar.bar.opened';

const readBarOpened = (): boolean => readStorage(CHAT_SIDEBAR_STORAGE_KEY) !== 'false';

/** bar: remembered across visits (open by default); over: the overlay, shown on request only. */
export const chatSidebarStore = proxy({ bar: readBarOpened(), over: false });

/**
 * Wide screens: open or closed as the reader left it. Narrow screens: the overlay when asked for, and
 * always while no chat is selected (the list is then the whole screen's purpose).
 */
export function chatSidebarState(mode: MenuMode, opened: { bar: boolean; over: boolean }, hasChat: boolean): ChatSidebarState {
  if (mode === 'bar') return opened.bar ? 'open' : 'closed';
  return opened.over || !hasChat ? 'visible' : 'closed';
}

export function toggleChatSidebar(mode: MenuMode): void {
  if (mode === 'bar') {
    chatSidebarStore.bar = !chatSidebarStore.bar;
    writeStorage(CHAT_SIDEBAR_STORAGE_KEY, String(chatSidebarStore.bar));
  } else {
    chatSidebarStore.over = !chatSidebarStore.over;
  }
}

/** The overlay closes once a chat was picked or the reader dismissed it. */
export function closeChatSidebarOverlay(): void {
  chatSidebarStore.over = false;
}

export function reloadChatSidebar(): void {
  chatSidebarStore.bar = readBarOpened();
  chatSidebarStore.over = false;
}
