import { Injectable, OnModuleInit } from '@nestjs/common';
import * as argon2 from 'argon2';
import { randomBytes } from 'node:crypto';

// OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): node-argon2's default (64 MiB, 3 passes, 4 lanes)
// costs ~1 s per login on a busy 2-core machine. Verification reads the parameters from each stored hash.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** argon2id hashing; a login for an unknown e-mail verifies against a dummy hash so it takes as long. */
@Injectable()
export class PasswordService implements OnModuleInit {
  private dummy?: Promise<string>;

  onModuleInit(): void {
    this.dummy ??= argon2.hash(randomBytes(16).toString('hex'), OPTIONS);
  }

  hash(password: string): Promise<string> {
    return argon2.hash(password, OPTIONS);
  }

  /** False for a wrong password; with no hash, spends the same time and answers false. */
  async verify(hash: string | undefined, password: string): Promise<boolean> {
    this.dummy ??= argon2.hash(randomBytes(16).toString('hex'), OPTIONS);
    const ok = await argon2.verify(hash ?? (await this.dummy), password).catch(() => false);
    return hash !== undefined && ok;
  }
}
