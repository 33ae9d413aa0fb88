import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { residenceSchema } from '../residence/residence';
import { shiftDetailsSchema } from '../shift/schemas';
import { createUserSchema, firstIssueMessage, loginSchema, transferRequestSchema } from './forms';
import { cleanText, entityId, isCleanText, isControlCharacter } from './text';

const messageOf = (result: { success: boolean; error?: Parameters<typeof firstIssueMessage>[0] }) =>
  result.success ? undefined : firstIssueMessage(result.error!);

const shift = {
  location: 'Maple House',
  date: '2030-01-15',
  startTime: '08:00',
  endTime: '16:00',
  type: 'AM',
};
const user = {
  username: 'alex',
  password: 'secret1',
  confirmPassword: 'secret1',
  firstName: 'Alex',
  lastName: 'Rivera',
  email: 'alex@example.org',
};

/** Every character a one-line field refuses: C0, DEL, C1. */
const controlCharacter = fc
  .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }))
  .map((code) => String.fromCharCode(code));
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));

describe('text a person types', () => {
  it('refuses NUL, every other control character and lone surrogates anywhere in a one-line field', () => {
    fc.assert(
      // Printable ASCII around it, so a surrogate stays unpaired.
      fc.property(
        fc.string({ maxLength: 20 }),
        fc.oneof(controlCharacter, loneSurrogate),
        fc.string({ maxLength: 20 }),
        (before, bad, after) => {
          expect(isCleanText(`${before}${bad}${after}`)).toBe(false);
        },
      ),
    );
  });

  it('accepts any well-formed text without control characters, emoji and accents included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        fc.pre(![...text].some((c) => isControlCharacter(c.charCodeAt(0))));
        expect(isCleanText(text)).toBe(true);
      }),
    );
    expect(isCleanText('Zoë 👩🏽‍⚕️ Ōkafor')).toBe(true);
  });

  it('keeps tabs and line breaks only in multi-line fields', () => {
    expect(isCleanText('line one\r\nline two\tend', true)).toBe(true);
    expect(isCleanText('line one\nline two')).toBe(false);
    expect(isCleanText('bell\u0007', true)).toBe(false);
  });

  it("answers in the form's words", () => {
    const firstName = cleanText({ label: 'First name', max: 100, required: 'First name is required' });
    expect(messageOf(firstName.safeParse('Al\u0000ex'))).toBe(
      'First name contains characters that are not allowed',
    );
    expect(messageOf(firstName.safeParse('  '))).toBe('First name is required');
    expect(messageOf(firstName.safeParse('a'.repeat(101)))).toBe('First name must be at most 100 characters');
    expect(firstName.parse('  Alex ')).toBe('Alex');
    expect(messageOf(entityId.safeParse('shift\u0000'))).toBe('Id contains characters that are not allowed');
  });

  it('is the rule of every text field of the forms', () => {
    expect(messageOf(shiftDetailsSchema.safeParse({ ...shift, location: 'Maple\u0000' }))).toBe(
      'Location contains characters that are not allowed',
    );
    expect(messageOf(shiftDetailsSchema.safeParse({ ...shift, location: 'M'.repeat(250_000) }))).toBe(
      'Location must be at most 200 characters',
    );
    expect(messageOf(shiftDetailsSchema.safeParse({ ...shift, notes: 'one\ntwo\u001b' }))).toBe(
      'Notes contains characters that are not allowed',
    );
    expect(shiftDetailsSchema.parse({ ...shift, notes: 'one\ntwo' }).notes).toBe('one\ntwo');
    expect(messageOf(createUserSchema.safeParse({ ...user, firstName: 'A\u0000' }))).toBe(
      'First name contains characters that are not allowed',
    );
    expect(messageOf(createUserSchema.safeParse({ ...user, lastName: '\ud800' }))).toBe(
      'Last name contains characters that are not allowed',
    );
    expect(messageOf(createUserSchema.safeParse({ ...user, username: 'al\u0085ex' }))).toBe(
      'Username contains characters that are not allowed',
    );
    expect(messageOf(createUserSchema.safeParse({ ...user, email: `${'a'.repeat(250)}@example.org` }))).toBe(
      'Email must be at most 254 characters',
    );
    expect(messageOf(loginSchema.safeParse({ username: 'dana\u0000', password: 'x' }))).toBe(
      'Username contains characters that are not allowed',
    );
    expect(messageOf(residenceSchema.safeParse({ name: 'Maple\u0000House' }))).toBe(
      'Residence name contains characters that are not allowed',
    );
    expect(messageOf(transferRequestSchema.safeParse({ toUserId: 'u1', message: 'hi\u0000' }))).toBe(
      'Message contains characters that are not allowed',
    );
    expect(messageOf(transferRequestSchema.safeParse({ toUserId: 'u\u00001' }))).toBe(
      'Id contains characters that are not allowed',
    );
  });
});
