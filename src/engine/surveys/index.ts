export * from './types';
export * from './inference';
export * from './scoring';
export * from './results';
export * from './definitions';
export * from './simulate-answers';
export * from './evolution';
export * from './persona-accuracy';
