/**
 * Discord permission flags the connector's tools depend on, by Discord's own names
 * (https://discord.com/developers/docs/topics/permissions#permissions-bitwise-permission-flags).
 */
export const discordPermissionBits = {
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
  MANAGE_MESSAGES: 1n << 13n,
  READ_MESSAGE_HISTORY: 1n << 16n,
} as const;

/** One Discord permission the connector models as a scope. */
export type DiscordPermission = keyof typeof discordPermissionBits;

/** Every permission the connector models, in a stable order. */
export const discordPermissions = Object.keys(discordPermissionBits) as DiscordPermission[];

const administrator = 1n << 3n;

/**
 * Names the modelled permissions set in a Discord permission bitfield (a decimal string, as the
 * API sends it). `ADMINISTRATOR` implies all of them. A malformed value grants nothing.
 */
export function permissionNames(bitfield: string | number | null | undefined): DiscordPermission[] {
  let bits: bigint;
  try {
    bits = BigInt(bitfield ?? 0);
  } catch {
    return [];
  }
  if ((bits & administrator) === administrator) return [...discordPermissions];
  return discordPermissions.filter(
    (name) => (bits & discordPermissionBits[name]) === discordPermissionBits[name],
  );
}
