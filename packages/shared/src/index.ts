export * from './messages';
export * from './fields';
export * from './auth';
export * from './accounts';
export * from './errors';
export * from './bmi';
