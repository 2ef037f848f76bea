import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res, StreamableFile, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import {
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiTags,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { AuthUser } from '#shared/contracts/auth';
import { CurrentUser } from '../../common/decorators/current-user.decorator';
import { notFound } from '../../common/errors';
import { CodeParamPipe } from '../../common/pipes';
import { RateLimitedPerUser } from '../../common/rate-limit/user-rate-limit.guard';
import { FileDto, FileListDto, UploadFileDto } from './dto/file.dto';
import { FilesService, FileVariant } from './files.service';

const VARIANTS: FileVariant[] = ['Preview', 'Thumbnail', 'Icon', 'Download'];

@ApiTags('files')
@ApiBearerAuth()
@Controller('File')
export class FilesController {
  constructor(private readonly files: FilesService) {}

  @Post()
  @RateLimitedPerUser('upload')
  @UseInterceptors(FileInterceptor('file'))
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['type', 'file'],
      properties: {
        type: { type: 'string', enum: ['ChatGroup', 'ChatMessage'] },
        groupCode: { type: 'string' },
        file: { type: 'string', format: 'binary' },
      },
    },
  })
  @ApiOperation({
    summary: 'Uploads one file (size limit FILE_MAX_SIZE → 413); the type is sniffed from the bytes',
    description:
      'An image (png/jpg/gif) is checked from its header before any decode and spends upload budget by its decoded size ' +
      '(one unit per FILE_IMAGE_BUDGET_UNIT_BYTES). Its renditions are made after the answer: until they are stored the ' +
      'file is described with hasThumbnail false and its rendition URLs answer 404.',
  })
  @ApiCreatedResponse({ type: FileDto })
  @ApiUnprocessableEntityResponse({
    description: 'VALIDATION.FILE.IMAGE_TOO_LARGE (decoded size over FILE_IMAGE_MAX_DECODED_BYTES), VALIDATION.FILE.QUOTA_EXCEEDED (FILE_QUOTA_BYTES)',
  })
  upload(@CurrentUser() user: AuthUser, @Body() dto: UploadFileDto, @UploadedFile() file: Express.Multer.File | undefined): Promise<FileDto> {
    return this.files.upload(user, dto, file);
  }

  @Post('List')
  @HttpCode(200)
  @ApiOperation({ summary: 'The files among the codes that the caller may read; others are absent' })
  @ApiOkResponse({ type: [FileDto] })
  list(@CurrentUser() user: AuthUser, @Body() dto: FileListDto): Promise<FileDto[]> {
    return this.files.list(user, dto.codeList);
  }

  @Delete(':code')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Deletes a file the caller uploaded: its bytes, its renditions, and its place in the messages that carried it (their text stays)',
  })
  @ApiNoContentResponse({ description: "deleted; the bytes no longer count against the caller's FILE_QUOTA_BYTES" })
  @ApiForbiddenResponse({ description: 'the caller may read the file but did not upload it' })
  @ApiNotFoundResponse({ description: 'no such file the caller can see' })
  delete(@CurrentUser() user: AuthUser, @Param('code', CodeParamPipe) code: string): Promise<void> {
    return this.files.delete(user, code);
  }

  @Get(':code/:secureCode/:variant')
  @ApiOperation({
    summary: 'Preview (1280 px), Thumbnail (320 px) and Icon (64 px) are PNG renditions of images; Download is the original, always as an attachment',
  })
  @ApiProduces('image/png', 'application/octet-stream')
  async serve(
    @CurrentUser() user: AuthUser,
    @Param('code', CodeParamPipe) code: string,
    @Param('secureCode', CodeParamPipe) secureCode: string,
    @Param('variant') variant: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<StreamableFile> {
    const match = VARIANTS.find((v) => v.toLowerCase() === variant.toLowerCase());
    if (!match) throw notFound();
    const served = await this.files.serve(user, code, secureCode, match);
    res.set({
      'Content-Type': served.attachment ? 'application/octet-stream' : served.mime,
      'Content-Disposition': `${served.attachment ? 'attachment' : 'inline'}; filename="${asciiName(served.name)}"; filename*=UTF-8''${encodeURIComponent(served.name)}`,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
      'Cache-Control': 'private, max-age=3600',
    });
    return new StreamableFile(served.stream);
  }
}

function asciiName(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
}
