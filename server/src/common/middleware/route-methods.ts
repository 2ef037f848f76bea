import { METHODS } from 'node:http';
import type { Application } from 'express';

interface RouteLayer {
  route?: { methods: Record<string, boolean> };
  match(path: string): unknown;
}

/**
 * The methods the app's routes answer at this path (HEAD with GET), read from Express' own router.
 * Routes registered for every method are Nest's middleware mounts (or an @All() handler, which can't
 * be the reason for a wrong method), so they don't count.
 */
export function allowedMethods(app: Application, path: string): string[] {
  const stack = (app as unknown as { router?: { stack?: RouteLayer[] } }).router?.stack ?? [];
  const methods = new Set<string>();
  for (const layer of stack) {
    if (!layer.route || Object.keys(layer.route.methods).length >= METHODS.length) continue;
    let matches = false;
    try {
      matches = Boolean(layer.match(path));
    } catch {
      // a parameter that is not valid percent-encoding matches nothing
    }
    if (!matches) continue;
    for (const [method, on] of Object.entries(layer.route.methods)) {
      if (on && method !== '_all') methods.add(method.toUpperCase());
    }
  }
  if (methods.has('GET')) methods.add('HEAD');
  if (methods.size) methods.add('OPTIONS');
  return [...methods].sort();
}
