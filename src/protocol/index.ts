export * from './cards';
export * from './chat';
export * from './constants';
export * from './events';
export * from './public-api';
export * from './result';
export * from './settings';
export * from './widget-config';
