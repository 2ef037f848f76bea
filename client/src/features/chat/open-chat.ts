/** The chat shown on screen, if any: its new messages are read at once. */
export const openChat: { code: string | null } = { code: null };
