import { ReviewDto } from './dto/review.dto';
import { publicSince } from './review-window';
import { ReviewRow } from './reviews.repository';

export function mapReview(r: ReviewRow, now: Date): ReviewDto {
  return {
    code: r.code,
    offerCode: r.offer_code,
    jobCode: r.job_code,
    rating: r.rating,
    text: r.text,
    authorRole: r.author_role,
    author: { code: r.author_code, name: r.author_name, surname: r.author_surname },
    subject: { code: r.subject_code, name: r.subject_name, surname: r.subject_surname },
    createdAt: r.created_at.toISOString(),
    publishedAt: publicSince(r, now)?.toISOString() ?? null,
    reply: r.reply_text !== null && r.replied_at ? { text: r.reply_text, at: r.replied_at.toISOString() } : null,
  };
}
