import { useParams, useSearchParams } from 'react-router-dom';
import { EDIT_PARAM, NEW_JOB_CODE } from '../job-links';
import { EditJobPage, NewJobPage } from './JobFormPage';
import { JobView } from './JobView';

/** The job route (/jobs/{jobId}): the job view, or the job form for /jobs/new and ?edit=1. */
export function JobPage() {
  const { jobId = '' } = useParams();
  const [params] = useSearchParams();
  if (jobId === NEW_JOB_CODE) return <NewJobPage />;
  if (params.has(EDIT_PARAM)) return <EditJobPage key={jobId} code={jobId} />;
  return <JobView key={jobId} code={jobId} />;
}
