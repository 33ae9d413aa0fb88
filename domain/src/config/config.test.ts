import { describe, it } from 'vitest';
import { adminActor, developerActor, given } from '../testing/specification';
import { now, STAMP } from '../testing/user-fixtures';
import { configDecider } from './config';

describe('e-mail notification mode', () => {
  it('a developer switches to the mailing list', () => {
    given(configDecider)
      .when(
        {
          type: 'SetEmailNotificationMode',
          data: { mode: 'mailing_list', mailingListAddress: 'team@example.org' },
        },
        { actor: developerActor(), now },
      )
      .thenEmits([
        {
          type: 'EmailNotificationModeSet',
          data: { mode: 'mailing_list', mailingListAddress: 'team@example.org', at: STAMP },
        },
      ]);
  });

  it('setting the mode it already has changes nothing', () => {
    given(configDecider)
      .when(
        { type: 'SetEmailNotificationMode', data: { mode: 'individual' } },
        { actor: developerActor(), now },
      )
      .thenEmits([]);
  });

  it('is a developer tool', () => {
    given(configDecider)
      .when(
        { type: 'SetEmailNotificationMode', data: { mode: 'mailing_list' } },
        { actor: adminActor(), now },
      )
      .thenRejects('forbidden');
  });
});
