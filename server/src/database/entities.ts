import { RefreshTokenEntity } from '../modules/auth/refresh-token.entity';
import { InstanceEntity } from '../modules/instances/instance.entity';
import { UserEntity } from '../modules/users/user.entity';

/** Every entity; the server, the worker and the migration CLI share this list. */
export const entities = [InstanceEntity, UserEntity, RefreshTokenEntity];
