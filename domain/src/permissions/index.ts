export * from './permissions';
export { refusalFor, requireActorCan } from './refusals';
