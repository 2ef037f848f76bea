/** Every route of the app, in one place; links and the router both use these constants. */
export const paths = {
  dashboard: '/',
  auth: '/auth',
  register: '/auth/register',
  authCallback: '/auth/callback/:provider',
  jobs: '/jobs',
  jobOffers: '/jobs/offers',
  jobPayments: '/jobs/payments',
  job: '/jobs/:jobId',
  jobOffer: '/jobs/:jobId/offers/:offerCode',
  messages: '/messages',
  messageGroup: '/messages/:groupId',
  messageParticipants: '/messages/:groupId/participants',
  messageSettings: '/messages/:groupId/settings',
  messageNew: '/messages/new/create',
  projects: '/projects',
  projectEstimate: '/projects/estimate',
  projectRepo: '/projects/repo',
  projectPipeline: '/projects/repo/pipeline',
  team: '/team',
  teamRoles: '/team/roles',
  teamRetro: '/team/retro',
  servers: '/servers',
  documents: '/documents',
  invoices: '/documents/invoices',
  tools: '/tools',
  toolsApi: '/tools/api',
  toolsNotification: '/tools/notification',
  repoTests: '/repo/tests',
  blog: '/blog',
  blogArticles: '/blog/articles',
  courses: '/courses',
  admin: '/admin',
  adminRooms: '/admin/rooms',
  adminReports: '/admin/reports',
  adminRoom: '/admin/rooms/:groupId',
  user: '/user',
  notificationSettings: '/settings/notifications',
  users: '/u',
  userProfile: '/u/:userCode',
  capsule: '/capsule',
} as const;

export type RoutePath = (typeof paths)[keyof typeof paths];

export const toUserProfile = (userCode: string): string => `/u/${encodeURIComponent(userCode)}`;
export const toJob = (jobId: string): string => `/jobs/${encodeURIComponent(jobId)}`;
export const toJobOffer = (jobId: string, offerCode: string): string => `${toJob(jobId)}/offers/${encodeURIComponent(offerCode)}`;
/** The make-an-offer page: the offer route with the reserved code 'new' (offer codes are never 'new'). */
export const NEW_OFFER_CODE = 'new';
export const toNewJobOffer = (jobId: string): string => toJobOffer(jobId, NEW_OFFER_CODE);
export const toMessageGroup = (groupId: string): string => `/messages/${encodeURIComponent(groupId)}`;
export const toMessageParticipants = (groupId: string): string => `${toMessageGroup(groupId)}/participants`;
export const toMessageSettings = (groupId: string): string => `${toMessageGroup(groupId)}/settings`;
export const toAdminRoom = (groupId: string): string => `/admin/rooms/${encodeURIComponent(groupId)}`;

/** The login address that brings the visitor back to `returnTo` afterwards. */
export const toLogin = (returnTo?: string): string =>
  returnTo && returnTo !== paths.auth ? `${paths.auth}?after=${encodeURIComponent(returnTo)}` : paths.auth;

/** Only same-app paths are followed after login: '/x' yes, '//evil.example' or 'https://…' no. */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}
