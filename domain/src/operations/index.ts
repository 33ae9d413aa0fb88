export {
  type OperationCommand,
  type OperationEvent,
  operationDecider,
} from './operations';
