import { Injectable, PipeTransform } from '@nestjs/common';
import { CODE_PATTERN } from './codes';
import { notFound, unprocessable } from './errors';

/** A path code that can't be a code names nothing: 404, like a code that doesn't exist. */
@Injectable()
export class CodeParamPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (typeof value !== 'string' || !CODE_PATTERN.test(value)) throw notFound();
    return value;
  }
}

/** An integer path parameter from a fixed set, else 422 naming the parameter. */
export class IntInSetPipe implements PipeTransform<string, number> {
  constructor(
    private readonly name: string,
    private readonly allowed: readonly number[],
  ) {}

  transform(value: string): number {
    const n = /^\d{1,3}$/.test(value) ? Number(value) : NaN;
    if (!this.allowed.includes(n)) throw unprocessable([`VALIDATION.${this.name}.INVALID`]);
    return n;
  }
}
