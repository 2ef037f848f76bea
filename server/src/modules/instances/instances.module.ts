import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { InstanceEntity } from './instance.entity';
import { InstanceResolver } from './instance-resolver.service';
import { InstanceStylesController } from './instance-styles.controller';
import { InstancesController } from './instances.controller';
import { InstancesRepository } from './instances.repository';
import { InstancesService } from './instances.service';

@Module({
  imports: [TypeOrmModule.forFeature([InstanceEntity])],
  controllers: [InstancesController, InstanceStylesController],
  providers: [InstancesRepository, InstanceResolver, InstancesService],
  exports: [InstancesRepository, InstanceResolver],
})
export class InstancesModule {}
