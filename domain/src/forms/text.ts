import { z } from 'zod';

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** C0, DEL and C1: NUL cannot be stored by PostgreSQL, the rest break mail headers, logs and exports. */
export const isControlCharacter = (code: number) => code < 0x20 || (code >= 0x7f && code <= 0x9f);

/**
 * Whether `text` holds only characters a field may store: no control characters (multi-line fields
 * keep tabs and line breaks) and no unpaired UTF-16 surrogate, which is not text at all and which
 * PostgreSQL cannot store either.
 */
export function isCleanText(text: string, multiline = false): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isControlCharacter(code)) {
      if (!multiline || (code !== TAB && code !== LINE_FEED && code !== CARRIAGE_RETURN)) return false;
    } else if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i += 1;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      return false;
    }
  }
  return true;
}

export interface CleanTextOptions {
  /** The field's name as the form shows it, e.g. "First name". */
  label: string;
  /** The most characters the field holds, after trimming. */
  max: number;
  /** Notes and messages keep line breaks and tabs; every other field is one line. */
  multiline?: boolean;
  /** The form's message when the field is missing or blank; without it, blank is allowed. */
  required?: string;
}

/**
 * A text field of a form: trimmed, at most `max` characters, no control characters. Every form
 * schema takes its text fields from here, so the server and the screens refuse the same input
 * with the same words.
 */
export function cleanText({ label, max, multiline = false, required }: CleanTextOptions) {
  const text = z.string({ error: required ?? `${label} must be text` }).trim();
  return (required ? text.min(1, required) : text)
    .max(max, `${label} must be at most ${max} characters`)
    .refine((value) => isCleanText(value, multiline), `${label} contains characters that are not allowed`);
}

/** An optional text field: blank and missing both become null. */
export function optionalCleanText(options: Omit<CleanTextOptions, 'required'>) {
  return cleanText(options)
    .nullish()
    .transform((value) => value || null);
}

/**
 * The id of a thing in a path or a filter. Ids are opaque; one that cannot be a stored id (blank,
 * too long, control characters) is refused before anything is looked up.
 */
export const entityId = cleanText({ label: 'Id', max: 100, required: 'Id is required' });
