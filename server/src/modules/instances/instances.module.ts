import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InstanceEntity } from './instance.entity';
import { InstanceResolver } from './instance-resolver.service';
import { InstancesRepository } from './instances.repository';

@Module({
  imports: [TypeOrmModule.forFeature([InstanceEntity])],
  providers: [InstancesRepository, InstanceResolver],
  exports: [InstancesRepository, InstanceResolver],
})
export class InstancesModule {}
