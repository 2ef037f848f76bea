import { CurrentInstanceDto, InstanceDto } from './dto/instance-response.dto';
import { InstanceEntity } from './instance.entity';

export function mapCurrentInstance(i: InstanceEntity): CurrentInstanceDto {
  return { code: i.code, name: i.name, color: i.color, accent: i.accent, logoUrl: i.logoUrl };
}

export function mapInstance(i: InstanceEntity): InstanceDto {
  return {
    ...mapCurrentInstance(i),
    customCss: i.customCss,
    hosts: [...i.hosts],
    isDefault: i.isDefault,
    updatedAt: i.updatedAt.toISOString(),
  };
}
