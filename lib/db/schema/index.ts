export * from './auth';
export * from './audit';
export * from './settings';
export * from './executions';
export * from './sync';
export * from './review';
export * from './feedback';
export * from './trends';
