import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { UserEntity } from './user.entity';

/** The only code that touches the user table. */
@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  findByCode(code: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ code });
  }

  findByEmail(instanceId: string, email: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ instanceId, email: email.toLowerCase() });
  }
}
