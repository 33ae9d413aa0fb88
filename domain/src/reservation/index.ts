export {
  type UniqueKind,
  type UniquenessCommand,
  type UniquenessEvent,
  type UniquenessState,
  uniqueKey,
  uniquenessDecider,
} from './uniqueness';
