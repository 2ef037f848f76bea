import Module from 'node:module';
import path from 'node:path';

/**
 * Jest's moduleNameMapper covers test files but not globalSetup, which Node loads itself: there #shared/* would
 * resolve through package.json "imports" to dist/ (stale or missing). Point it at the sources instead, which
 * jest's transform compiles as they are required. Import this before anything that reaches into shared/.
 */
const SHARED = path.join(__dirname, '..', '..', 'shared') + path.sep;
type Resolve = (request: string, ...rest: unknown[]) => string;
const loader = Module as unknown as { _resolveFilename: Resolve };
const resolve = loader._resolveFilename;
loader._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
  return resolve.call(this, request.startsWith('#shared/') ? SHARED + request.slice('#shared/'.length) : request, ...rest);
};
