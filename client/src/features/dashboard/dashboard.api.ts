import { http } from '@/api/http';

/** A job as the dashboard lists it (GET /api/job?mine=true). */
export interface DashboardJob {
  code: string;
  title: string;
  deadline: string | null;
  acceptingOffers: boolean;
}

export const dashboardApi = {
  /** My own jobs, newest first (the first page of 20). */
  myJobs: (lang: string) =>
    http.get<{ jobs: DashboardJob[]; hasMore: boolean }>(`/api/job?mine=true&lang=${encodeURIComponent(lang)}`, { cache: false, handleErrors: false }),
};
