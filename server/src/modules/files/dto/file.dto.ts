import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, Matches } from 'class-validator';
import { CODE_PATTERN } from '../../../common/codes';
import type { FileResponse } from '#shared/contracts/rest/files';

export class UploadFileDto {
  @ApiProperty({ enum: ['ChatGroup', 'ChatMessage'], description: 'the upload context' })
  @IsIn(['ChatGroup', 'ChatMessage'])
  type: 'ChatGroup' | 'ChatMessage';

  @ApiPropertyOptional({ description: 'share the file in this group at once (the caller must be in it)' })
  @IsOptional()
  @Matches(CODE_PATTERN)
  groupCode?: string;
}

export class FileListDto {
  @ApiProperty({ type: [String], maxItems: 200 })
  @IsArray()
  @ArrayMaxSize(200)
  @Matches(CODE_PATTERN, { each: true })
  codeList: string[];
}

export class FileDto implements FileResponse {
  @ApiProperty() code: string;
  @ApiProperty({ description: 'must accompany the code in every file URL' }) secureCode: string;
  @ApiProperty() name: string;
  @ApiProperty({ description: 'bytes' }) size: number;
  @ApiProperty({ description: 'sniffed from the content' }) mime: string;
  @ApiProperty({ enum: ['image', 'unknown'] }) kind: 'image' | 'unknown';
  @ApiProperty() hasThumbnail: boolean;
  @ApiProperty() createdAt: string;
}
