import { ApiProperty } from '@nestjs/swagger';
import type { CurrentInstanceResponse, InstanceResponse } from '#shared/contracts/rest/instances';

/** What anyone may know about the instance a host serves: enough to brand the page. */
export class CurrentInstanceDto implements CurrentInstanceResponse {
  @ApiProperty({ example: 'x4Yq9Zr2LmNp', description: 'public code of the instance' }) code: string;
  @ApiProperty({ example: 'Parley', description: 'page title' }) name: string;
  @ApiProperty({ example: '228be6', description: 'hex colour without "#"' }) color: string;
  @ApiProperty({ example: '7950f2', description: 'hex colour without "#"' }) accent: string;
  @ApiProperty({ nullable: true, type: String, description: 'logo address; the client hides the logo if it fails to load' })
  logoUrl: string | null;
}

/** An instance as its members and global users see it, including its custom CSS and host names. */
export class InstanceDto extends CurrentInstanceDto implements InstanceResponse {
  @ApiProperty({ description: 'CSS appended to /instance/styles.css' }) customCss: string;
  @ApiProperty({ type: [String], example: ['jobs.example.com'], description: 'host names that select this instance' }) hosts: string[];
  @ApiProperty({ description: 'the instance served for hosts no other instance claims' }) isDefault: boolean;
  @ApiProperty({ example: '2026-01-01T00:00:00.000Z' }) updatedAt: string;
}

export class InstancePageDto {
  @ApiProperty({ type: [InstanceDto] }) items: InstanceDto[];
  @ApiProperty() page: number;
  @ApiProperty() pageSize: number;
  @ApiProperty({ description: 'instances visible to the caller in all pages' }) total: number;
}
