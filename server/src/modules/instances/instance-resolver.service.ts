import { Injectable } from '@nestjs/common';
import { InstanceEntity } from './instance.entity';
import { InstancesRepository } from './instances.repository';

const CACHE_MS = 10_000;

/** Chooses the instance by the request's host name, falling back to the default instance; cached briefly. */
@Injectable()
export class InstanceResolver {
  private readonly cache = new Map<string, { instance: InstanceEntity; until: number }>();

  constructor(private readonly repo: InstancesRepository) {}

  async resolve(hostHeader: string | undefined): Promise<InstanceEntity> {
    const host = normaliseHost(hostHeader);
    const hit = this.cache.get(host);
    if (hit && hit.until > Date.now()) return hit.instance;
    const instance = (host && (await this.repo.findByHost(host))) || (await this.repo.findOrCreateDefault());
    if (this.cache.size > 1000) this.cache.clear();
    this.cache.set(host, { instance, until: Date.now() + CACHE_MS });
    return instance;
  }

  /** Drops cached lookups after an instance changes. */
  invalidate(): void {
    this.cache.clear();
  }
}

const HOST_NAME = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;

/**
 * The Host header as a lookup key: lower case, without port or a trailing dot; '' when it is missing
 * or is not a host name (those requests get the default instance).
 */
export function normaliseHost(hostHeader: string | undefined): string {
  if (!hostHeader) return '';
  const host = hostHeader.trim().toLowerCase();
  if (host.startsWith('[')) {
    const ipv6 = host.slice(0, host.indexOf(']') + 1);
    return IPV6.test(ipv6) ? ipv6 : '';
  }
  const name = host.replace(/:\d*$/, '').replace(/\.$/, '');
  return name.length <= 253 && HOST_NAME.test(name) ? name : '';
}
