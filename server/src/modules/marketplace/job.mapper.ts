import { JobDto } from './dto/job.dto';
import { JobRow, VersionRow } from './jobs.repository';

/** The version in `lang` if the job has one, else the default one. */
export function pickVersion<V extends { lang: string; is_default: boolean }>(versions: V[], lang?: string): V | undefined {
  return (lang && versions.find((v) => v.lang === lang)) || versions.find((v) => v.is_default) || versions[0];
}

export function mapJob(job: JobRow, versions: VersionRow[], offerCounts: Map<string, number>, lang?: string): JobDto {
  const own = versions.filter((v) => v.job_id === job.id);
  const chosen = pickVersion(own, lang);
  return {
    code: job.code,
    deadline: job.deadline ? job.deadline.toISOString() : null,
    customerCode: job.customer_code,
    acceptingOffers: job.accepting_offers,
    lang: chosen?.lang ?? '',
    title: chosen?.title ?? '',
    description: chosen?.description ?? '',
    versions: own.map((v) => ({ lang: v.lang, title: v.title, description: v.description, isDefault: v.is_default })),
    offerCount: offerCounts.get(job.id) ?? 0,
    createdAt: job.created_at.toISOString(),
    updatedAt: job.updated_at.toISOString(),
  };
}
