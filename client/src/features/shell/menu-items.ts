import type { Icon } from '@tabler/icons-react';
import {
  IconBriefcase,
  IconComponents,
  IconEye,
  IconFlag,
  IconFileText,
  IconFolder,
  IconLayoutDashboard,
  IconMessages,
  IconPalette,
  IconSchool,
  IconServer,
  IconTestPipe,
  IconTool,
  IconUsersGroup,
  IconArticle,
} from '@tabler/icons-react';
import { tk } from '@/i18n/i18n';
import { paths } from '@/routes/paths';

export type MenuItemState = 'stable' | 'beta' | 'alfa';

export interface MenuItem {
  /** Translation key of the label. */
  label: string;
  path: string;
  icon: Icon;
  state?: MenuItemState;
  children?: MenuItem[];
}

/** The side menu; each entry shows only when its route's guard allows. */
export const MENU_ITEMS: MenuItem[] = [
  { label: tk('MENU.DASHBOARD'), path: paths.dashboard, icon: IconLayoutDashboard },
  {
    label: tk('MENU.JOBS'),
    path: paths.jobs,
    icon: IconBriefcase,
    state: 'beta',
    children: [
      { label: tk('MENU.JOB_LIST'), path: paths.jobs, icon: IconBriefcase },
      { label: tk('MENU.JOB_OFFERS'), path: paths.jobOffers, icon: IconBriefcase },
      { label: tk('MENU.JOB_PAYMENTS'), path: paths.jobPayments, icon: IconBriefcase },
    ],
  },
  { label: tk('MENU.MESSAGES'), path: paths.messages, icon: IconMessages, state: 'beta' },
  {
    label: tk('MENU.PROJECTS'),
    path: paths.projects,
    icon: IconFolder,
    state: 'alfa',
    children: [
      { label: tk('MENU.PROJECTS_OVERVIEW'), path: paths.projects, icon: IconFolder },
      { label: tk('MENU.PROJECT_ESTIMATE'), path: paths.projectEstimate, icon: IconFolder },
      { label: tk('MENU.PROJECT_REPO'), path: paths.projectRepo, icon: IconFolder },
      { label: tk('MENU.PROJECT_PIPELINE'), path: paths.projectPipeline, icon: IconFolder },
    ],
  },
  {
    label: tk('MENU.TEAM'),
    path: paths.team,
    icon: IconUsersGroup,
    state: 'alfa',
    children: [
      { label: tk('MENU.TEAM_OVERVIEW'), path: paths.team, icon: IconUsersGroup },
      { label: tk('MENU.TEAM_ROLES'), path: paths.teamRoles, icon: IconUsersGroup },
      { label: tk('MENU.TEAM_RETRO'), path: paths.teamRetro, icon: IconUsersGroup },
    ],
  },
  { label: tk('MENU.SERVERS'), path: paths.servers, icon: IconServer, state: 'alfa' },
  {
    label: tk('MENU.DOCUMENTS'),
    path: paths.documents,
    icon: IconFileText,
    state: 'alfa',
    children: [
      { label: tk('MENU.DOCUMENTS_ALL'), path: paths.documents, icon: IconFileText },
      { label: tk('MENU.INVOICES'), path: paths.invoices, icon: IconFileText },
    ],
  },
  {
    label: tk('MENU.TOOLS'),
    path: paths.tools,
    icon: IconTool,
    state: 'alfa',
    children: [
      { label: tk('MENU.TOOLS_ALL'), path: paths.tools, icon: IconTool },
      { label: tk('MENU.TOOLS_API'), path: paths.toolsApi, icon: IconTool },
      { label: tk('MENU.TOOLS_NOTIFICATION'), path: paths.toolsNotification, icon: IconTool },
    ],
  },
  { label: tk('MENU.REPO_TESTS'), path: paths.repoTests, icon: IconTestPipe, state: 'alfa' },
  { label: tk('MENU.BLOG'), path: paths.blog, icon: IconArticle, state: 'alfa' },
  { label: tk('MENU.COURSES'), path: paths.courses, icon: IconSchool, state: 'alfa' },
  { label: tk('MENU.ADMIN'), path: paths.admin, icon: IconPalette },
  { label: tk('MENU.ROOMS'), path: paths.adminRooms, icon: IconEye },
  { label: tk('MENU.REPORTS'), path: paths.adminReports, icon: IconFlag },
  { label: tk('MENU.CAPSULE'), path: paths.capsule, icon: IconComponents },
];

/** Entries the guard allows; a parent stays only while it or a child is allowed. */
export function visibleMenuItems(items: MenuItem[], allows: (path: string) => boolean): MenuItem[] {
  return items.flatMap((item) => {
    const children = item.children ? visibleMenuItems(item.children, allows) : undefined;
    if (!allows(item.path) && !children?.length) return [];
    return [{ ...item, children }];
  });
}
