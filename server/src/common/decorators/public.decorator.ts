import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'parley:isPublic';
/** Marks a route that needs no access token. */
export const Public = () => SetMetadata(IS_PUBLIC, true);
