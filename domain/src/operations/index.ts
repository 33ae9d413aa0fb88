export {
  type OperationCommand,
  type OperationEvent,
  operationDecider,
  type ParkedEventRef,
} from './operations';
