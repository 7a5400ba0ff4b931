export * from './impact-model';
