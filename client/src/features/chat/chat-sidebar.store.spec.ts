import {
  CHAT_SIDEBAR_STORAGE_KEY,
  chatSidebarState,
  chatSidebarStore,
  closeChatSidebarOverlay,
  reloadChatSidebar,
  toggleChatSidebar,
} from './chat-sidebar.store';

beforeEach(() => reloadChatSidebar());

describe('chat sidebar states', () => {
  it('is open or closed beside the chat on wide screens', () => {
    expect(chatSidebarState('bar', { bar: true, over: false }, true)).toBe('open');
    expect(chatSidebarState('bar', { bar: false, over: true }, true)).toBe('closed');
    expect(chatSidebarState('bar', { bar: true, over: false }, false)).toBe('open');
  });

  it('lies over the chat on narrow screens when asked for, and always while no chat is selected', () => {
    expect(chatSidebarState('over', { bar: true, over: false }, true)).toBe('closed');
    expect(chatSidebarState('over', { bar: false, over: true }, true)).toBe('visible');
    expect(chatSidebarState('over', { bar: false, over: false }, false)).toBe('visible');
  });

  it('remembers the wide state across visits and never the overlay', () => {
    expect(chatSidebarStore.bar).toBe(true);
    toggleChatSidebar('bar');
    expect(window.localStorage.getItem(CHAT_SIDEBAR_STORAGE_KEY)).toBe('false');
    reloadChatSidebar();
    expect(chatSidebarStore.bar).toBe(false);
    toggleChatSidebar('over');
    expect(chatSidebarStore.over).toBe(true);
    closeChatSidebarOverlay();
    expect(chatSidebarStore.over).toBe(false);
  });
});
