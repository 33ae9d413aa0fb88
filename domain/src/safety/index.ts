export {
  type Credential,
  coversUntil,
  type HeldTime,
  type PersonRecord,
  type RuleBreach,
  type RuleCode,
  RuleRefusal,
  ruleBreaches,
  type TimeOff,
  validUntil,
  weekStart,
  workingTimeRuleCodes,
} from './checks';
export {
  type CredentialType,
  type CredentialTypeCommand,
  type CredentialTypeEvent,
  type CredentialTypesState,
  credentialTypeSchema,
  credentialTypesDecider,
  listedName,
} from './credential-types';
export { credentialFormSchema, timeOffFormSchema } from './forms';
export { heldShift, heldWithin } from './held-times';
export {
  type CandidateFacts,
  candidateFacts,
  rankCandidates,
} from './ranking';
export {
  defaultWhatIfFrom,
  WHAT_IF_DAYS,
  type WhatIfReport,
  type WhatIfViolation,
  whatIf,
} from './what-if';
export {
  DEFAULT_WORKING_TIME_RULES,
  type VersionedRules,
  type WorkingTimeRules,
  type WorkingTimeRulesCommand,
  type WorkingTimeRulesEvent,
  workingTimeRulesDecider,
  workingTimeRulesSchema,
} from './working-time';
