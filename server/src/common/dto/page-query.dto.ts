import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';

/** Exactly the whole numbers 1..max as query strings (no sign, no leading zero, no repeats of the parameter). */
const oneTo = (max: number) => new RegExp(`^(?:${Array.from({ length: max }, (_, i) => i + 1).join('|')})$`);

export interface PageQuery {
  page?: string;
  pageSize?: string;
}

/** `?page&pageSize` for a list endpoint: page from 1, pageSize 1..maxPageSize (callers apply the default). */
export function PageQueryDto(maxPageSize: number, defaultPageSize: number) {
  class PageQueryBase implements PageQuery {
    @ApiPropertyOptional({ default: 1, minimum: 1 })
    @IsOptional()
    @Matches(/^[1-9]\d{0,5}$/)
    page?: string;

    @ApiPropertyOptional({ default: defaultPageSize, minimum: 1, maximum: maxPageSize })
    @IsOptional()
    @Matches(oneTo(maxPageSize))
    pageSize?: string;
  }
  return PageQueryBase;
}

/** The numbers a validated PageQuery stands for. */
export function pageOf(query: PageQuery, defaultPageSize: number): { page: number; pageSize: number } {
  return { page: Number(query.page ?? 1), pageSize: Number(query.pageSize ?? defaultPageSize) };
}
