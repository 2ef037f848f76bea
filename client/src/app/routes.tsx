import { type ComponentType, type LazyExoticComponent, type ReactNode, lazy } from 'react';
import type { RouteObject } from 'react-router-dom';
import { tk } from '@/i18n/i18n';
import { NotFoundPage } from '@/features/placeholders/NotFoundPage';
import { Shell } from '@/features/shell/Shell';
import { paths } from '@/routes/paths';
import type { ChatView } from '@/features/chat/ChatPage';
import { prefetchConversation } from '@/features/chat/conversation/opening';
import { Guarded } from './guards/Guarded';
import { Spinner } from '@/components/loaders/loaders';

const ChatLoading = () => <Spinner />;

const page = <P extends object>(load: () => Promise<ComponentType<P>>): LazyExoticComponent<ComponentType<P>> => lazy(async () => ({ default: await load() }));

const DashboardPage = page(() => import('@/features/dashboard/DashboardPage').then((m) => m.DashboardPage));
const LoginPage = page(() => import('@/features/auth/LoginPage').then((m) => m.LoginPage));
const RegisterPage = page(() => import('@/features/auth/RegisterPage').then((m) => m.RegisterPage));
const ProviderCallbackPage = page(() => import('@/features/auth/ProviderCallbackPage').then((m) => m.ProviderCallbackPage));
const AdminPage = page(() => import('@/features/admin/AdminPage').then((m) => m.AdminPage));
const ProfilePage = page(() => import('@/features/profile/ProfilePage').then((m) => m.ProfilePage));
const NotificationSettingsPage = page(() => import('@/features/notifications/NotificationSettingsPage').then((m) => m.NotificationSettingsPage));
const CapsulePage = page(() => import('@/features/capsule/CapsulePage').then((m) => m.CapsulePage));
const RoomsPage = page(() => import('@/features/moderation/RoomsPage').then((m) => m.RoomsPage));
const ReportsQueuePage = page(() => import('@/features/reports/ReportsQueuePage').then((m) => m.ReportsQueuePage));
const WatchRoomPage = page(() => import('@/features/moderation/WatchRoomPage').then((m) => m.WatchRoomPage));
const JobsListPage = page(() => import('@/features/jobs/components/JobsListPage').then((m) => m.JobsListPage));
const JobPage = page(() => import('@/features/jobs/components/JobPage').then((m) => m.JobPage));
const AreaPlaceholder = page(() => import('@/features/placeholders/AreaPlaceholder').then((m) => m.AreaPlaceholder));
const OfferPage = page(() => import('@/features/offers/components/OfferPage').then((m) => m.OfferPage));
const OffersListPage = page(() => import('@/features/offers/components/OffersListPage').then((m) => m.OffersListPage));
const PaymentsPage = page(() => import('@/features/offers/components/PaymentsPage').then((m) => m.PaymentsPage));
const PremiumPlaceholder = page(() => import('@/features/placeholders/PremiumPlaceholder').then((m) => m.PremiumPlaceholder));

/** Screens of later issues (projects): the route and its guard exist, the screen is a notice. */
const AREA_ROUTES: [string, string][] = [
  [paths.projects, tk('MENU.PROJECTS')],
  [paths.projectEstimate, tk('MENU.PROJECT_ESTIMATE')],
  [paths.projectRepo, tk('MENU.PROJECT_REPO')],
  [paths.projectPipeline, tk('MENU.PROJECT_PIPELINE')],
];

/** Premium sections: all show the one shared placeholder. */
const PREMIUM_ROUTES: [string, string][] = [
  [paths.team, tk('MENU.TEAM')],
  [paths.teamRoles, tk('MENU.TEAM_ROLES')],
  [paths.teamRetro, tk('MENU.TEAM_RETRO')],
  [paths.servers, tk('MENU.SERVERS')],
  [paths.documents, tk('MENU.DOCUMENTS')],
  [paths.invoices, tk('MENU.INVOICES')],
  [paths.tools, tk('MENU.TOOLS')],
  [paths.toolsApi, tk('MENU.TOOLS_API')],
  [paths.toolsNotification, tk('MENU.TOOLS_NOTIFICATION')],
  [paths.repoTests, tk('MENU.REPO_TESTS')],
  [paths.blog, tk('MENU.BLOG')],
  [paths.blogArticles, tk('PREMIUM.BLOG_ARTICLES')],
  [paths.courses, tk('MENU.COURSES')],
];

const guarded = (path: string, element: ReactNode): RouteObject => ({
  path,
  element: (
    <Guarded key={path} path={path}>
      {element}
    </Guarded>
  ),
});

/**
 * The chat's routes load their screen through the router rather than React.lazy: the router shows them as
 * soon as the code is there, with no Suspense fallback (React holds a lazy screen back for ~300 ms after
 * its fallback showed), and an open chat's data loads meanwhile. A page load that starts on a chat shows the
 * shell with a spinner in the chat's place until then (the router's HydrateFallback; without one it drew
 * nothing and warned on every such load).
 */
const chatRoute = (path: string, view?: ChatView): RouteObject => ({
  path,
  HydrateFallback: ChatLoading,
  lazy: async () => {
    const { ChatPage } = await import('@/features/chat/ChatPage');
    return {
      element: (
        <Guarded key={path} path={path}>
          <ChatPage view={view} />
        </Guarded>
      ),
    };
  },
});

/** The route table of the spec (section 2), each route behind its guard, pages loaded lazily. */
export const routes: RouteObject[] = [
  {
    element: <Shell />,
    children: [
      guarded(paths.dashboard, <DashboardPage />),
      guarded(paths.auth, <LoginPage />),
      guarded(paths.register, <RegisterPage />),
      guarded(paths.authCallback, <ProviderCallbackPage />),
      guarded(paths.jobs, <JobsListPage />),
      guarded(paths.job, <JobPage />),
      ...AREA_ROUTES.map(([path, titleKey]) => guarded(path, <AreaPlaceholder key={path} titleKey={titleKey} />)),
      ...PREMIUM_ROUTES.map(([path, titleKey]) => guarded(path, <PremiumPlaceholder key={path} titleKey={titleKey} />)),
      // '/jobs/offers' and '/jobs/payments' are static, so the router ranks them above '/jobs/:jobId'.
      guarded(paths.jobOffers, <OffersListPage />),
      guarded(paths.jobPayments, <PaymentsPage />),
      guarded(paths.jobOffer, <OfferPage />),
      chatRoute(paths.messages),
      { ...chatRoute(paths.messageGroup), loader: ({ params }) => prefetchConversation(params.groupId) },
      chatRoute(paths.messageParticipants, 'participants'),
      chatRoute(paths.messageSettings, 'settings'),
      chatRoute(paths.messageNew, 'new'),
      guarded(paths.admin, <AdminPage />),
      guarded(paths.adminRooms, <RoomsPage />),
      guarded(paths.adminReports, <ReportsQueuePage />),
      guarded(paths.adminRoom, <WatchRoomPage />),
      guarded(paths.user, <ProfilePage />),
      guarded(paths.users, <ProfilePage />),
      guarded(paths.userProfile, <ProfilePage />),
      guarded(paths.notificationSettings, <NotificationSettingsPage />),
      guarded(paths.capsule, <CapsulePage />),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
