import 'server-only';

export * from './pool';
