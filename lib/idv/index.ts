import 'server-only';
/**
 * The client of the identity-verification service, server side. Browser code (client
 * components) imports constants and types from `@/lib/idv/schemas` and classes from
 * `@/lib/idv/errors` instead: this barrel pulls in the configuration with the client secret.
 */
export * from './client';
export * from './config';
export * from './errors';
export * from './http';
export * from './links';
export * from './rate-limit';
export * from './schemas';
export * from './tokens';
