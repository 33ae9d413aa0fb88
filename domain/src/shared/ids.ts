/**
 * A SHA-256 digest (hex) laid out as a name-based UUID: version 5, RFC 4122 variant. Ids derived
 * this way from a command name the same thing every time the command is replayed.
 */
export function uuidFromDigest(hex: string): string {
  const variant = ((Number.parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
