export {
  type ResidenceCommand,
  type ResidenceDetails,
  type ResidenceEvent,
  type ResidenceState,
  residenceDecider,
  residenceSchema,
} from './residence';
