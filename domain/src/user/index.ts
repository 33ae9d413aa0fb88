export {
  decideUser,
  evolveUser,
  initialUserState,
  type PersonalData,
  personalSchema,
  type RegisterUserData,
  type UpdateUserData,
  type UserCommand,
  type UserEvent,
  type UserState,
  userDecider,
} from './user';
