import type { ChatNotificationsResponse, NotificationSettingsResponse } from '@contracts/rest/notifications';
import { http } from './http';

export type NotificationSettings = NotificationSettingsResponse;
export type ChatNotifications = ChatNotificationsResponse;

// Settings change only through these calls: nothing here goes through the 10 s lookup cache.
export const notificationsApi = {
  settings: () => http.get<NotificationSettings>('/api/me/notifications', { cache: false }),
  save: (settings: NotificationSettings) => http.put<NotificationSettings>('/api/me/notifications', settings),
  /** `until`: the end of a snooze (ISO); absent: muted until turned back on. */
  muteChat: (code: string, body: { muted: boolean; until?: string }) =>
    http.put<ChatNotifications>(`/api/message/groups/${encodeURIComponent(code)}/notifications`, body),
};
